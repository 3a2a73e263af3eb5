# A 5.1 shim: ConvertFrom-Json as Windows PowerShell 5.1's behaves where play depends on it; PowerShell's
# own ConvertFrom-Json does the reading.
#  - Its JavaScriptSerializer refuses input over 2,097,152 characters (MaxJsonLength's default), with
#    .NET Framework's ArgumentException text. A program's calls travel as one ConvertFrom-Json literal
#    (runner/transport/powershell/program.ts), so a call over the limit fails on a node: the uploads
#    and fileContent send big files in pieces because of it.
#  - A JSON array is written as ONE object (an object[]), not enumerated (7 needs -NoEnumerate).
#  - Strings that look like dates stay strings (7 reads ISO 8601 text as DateTime).
#  - An empty string is a parameter binding error (7 allows it and writes nothing).
#  - An object or array left open is refused, its text quoted in the error (Json.NET reads it).

$script:ConvertFromJson = $ExecutionContext.InvokeCommand.GetCmdlet('ConvertFrom-Json')
$script:MaxJsonLength = 2097152

function ConvertFrom-Json {
    [CmdletBinding()]
    param([Parameter(Mandatory = $true, Position = 0, ValueFromPipeline = $true)][string]$InputObject)
    begin { $texts = New-Object System.Collections.Generic.List[string] }
    process { $texts.Add($InputObject) }
    end {
        # 5.1 reads several piped strings one by one when the first is whole JSON, else joined: both
        # meet the same limit for the inputs play sends (one literal).
        $length = 0
        foreach ($t in $texts) { $length += $t.Length }
        if ($texts.Count -gt 1) { $length += 2 * ($texts.Count - 1) }
        if ($length -gt $script:MaxJsonLength) {
            $message = "Error during serialization or deserialization using the JSON JavaScriptSerializer. The length of the string exceeds the value set on the maxJsonLength property.`r`nParameter name: input"
            $e = New-Object System.ArgumentException $message
            $PSCmdlet.ThrowTerminatingError((New-Object System.Management.Automation.ErrorRecord $e, 'System.ArgumentException,Microsoft.PowerShell.Commands.ConvertFromJsonCommand', 'NotSpecified', $null))
        }
        $all = $texts -join "`r`n"
        $unclosed = [PlayPwshHost.Json51]::Unclosed($all)
        if ($null -ne $unclosed) {
            $e = New-Object System.ArgumentException $unclosed
            $PSCmdlet.ThrowTerminatingError((New-Object System.Management.Automation.ErrorRecord $e, 'System.ArgumentException,Microsoft.PowerShell.Commands.ConvertFromJsonCommand', 'NotSpecified', $null))
        }
        $texts | & $script:ConvertFromJson -NoEnumerate -DateKind String
    }
}

Export-ModuleMember -Function ConvertFrom-Json
