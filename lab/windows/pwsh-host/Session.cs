// What a program finds in the host's session: the full PowerShell's commands, but only an allow-list
// of them. Module autoloading is off and nothing else is imported, so a cmdlet the simulated node does
// not model (Get-Process, Restart-Computer, Set-Content on the real disk, Out-File, Invoke-WebRequest...)
// is "not recognized" instead of acting on the Linux machine this runs on. The Windows cmdlets that
// touch files, services and the registry are the mock modules' functions (mock/*.psm1); the commands
// allowed here are the language's own (pipelines, objects, text, streams), all present in Windows
// PowerShell 5.1 (a 7-only command, Join-String or Get-Error, stays out).
using System.Management.Automation;
using System.Management.Automation.Runspaces;

namespace PlayPwshHost;

public static class Session
{
    /** Microsoft.PowerShell.Core: the engine's own commands that programs and mock modules use. */
    static readonly HashSet<string> s_core = new(StringComparer.OrdinalIgnoreCase)
    {
        "ForEach-Object", "Where-Object", "Get-Command", "Import-Module", "Remove-Module", "Get-Module", "New-Module",
        "Export-ModuleMember", "Out-Null", "Out-Default", "Out-Host", "Out-LineOutput", "Format-Default", "Set-StrictMode",
    };

    /**
     * Microsoft.PowerShell.Utility: objects, text and streams. Left out: what reads or writes files
     * (Out-File, Tee-Object, Export-/Import-Csv and -Clixml, Select-String, Format-Hex, Select-Xml,
     * Get-FileHash: a mock), the network (Invoke-WebRequest...), the machine (Set-Date), compiling
     * (Add-Type: the HNS P/Invoke is a shim) and 7-only commands.
     */
    static readonly HashSet<string> s_utility = new(StringComparer.OrdinalIgnoreCase)
    {
        "Add-Member", "Compare-Object", "ConvertFrom-Csv", "ConvertFrom-Json", "ConvertFrom-StringData", "ConvertTo-Csv",
        "Format-Custom", "Format-List", "Format-Table", "Format-Wide", "Get-Alias", "Get-Culture", "Get-Date", "Get-Host",
        "Get-Member", "Get-PSCallStack", "Get-Random", "Get-UICulture", "Get-Unique", "Get-Variable", "Group-Object",
        "Invoke-Expression", "Measure-Command", "Measure-Object", "New-Alias", "New-Guid", "New-Object", "New-TimeSpan",
        "New-Variable", "Out-String", "Remove-Variable", "Clear-Variable", "Select-Object", "Set-Alias", "Set-Variable",
        "Sort-Object", "Start-Sleep", "Write-Debug", "Write-Error", "Write-Host", "Write-Information", "Write-Output",
        "Write-Progress", "Write-Verbose", "Write-Warning",
    };

    /** Aliases Windows PowerShell 5.1 has and PowerShell 7 on Linux does not (sc is Set-Content there). */
    static readonly (string alias, string command)[] s_windowsAliases =
    {
        ("sleep", "Start-Sleep"), ("sort", "Sort-Object"), ("write", "Write-Output"), ("diff", "Compare-Object"),
        ("cat", "Get-Content"), ("cp", "Copy-Item"), ("mv", "Move-Item"), ("rm", "Remove-Item"), ("rmdir", "Remove-Item"),
        ("ls", "Get-ChildItem"), ("kill", "Stop-Process"), ("start", "Start-Process"), ("sc", "Set-Content"),
    };

    public static InitialSessionState Create()
    {
        var iss = InitialSessionState.CreateDefault2();
        foreach (var c in iss.Commands.OfType<SessionStateCmdletEntry>().ToList())
            if (!s_core.Contains(c.Name)) iss.Commands.Remove(c.Name, typeof(SessionStateCmdletEntry));
        var utility = typeof(Microsoft.PowerShell.Commands.GetDateCommand).Assembly;
        foreach (var type in utility.GetTypes())
        {
            var attr = type.GetCustomAttributes(typeof(CmdletAttribute), false).OfType<CmdletAttribute>().FirstOrDefault();
            var name = attr == null ? null : attr.VerbName + "-" + attr.NounName;
            if (name != null && s_utility.Contains(name) && name != "ConvertTo-Json")
                iss.Commands.Add(new SessionStateCmdletEntry(name, type, null));
        }
        // 5.1's ConvertTo-Json (Json51.cs) and the way to the node's model (Callback.cs).
        iss.Commands.Add(new SessionStateCmdletEntry("ConvertTo-Json", typeof(ConvertToJson51Command), null));
        iss.Commands.Add(new SessionStateCmdletEntry("Invoke-PlayWindows", typeof(InvokePlayWindowsCommand), null));
        foreach (var (alias, command) in s_windowsAliases)
            if (iss.Commands[alias].Count == 0) iss.Commands.Add(new SessionStateAliasEntry(alias, command));
        iss.Variables.Add(new SessionStateVariableEntry("PSModuleAutoLoadingPreference", PSModuleAutoLoadingPreference.None, ""));
        Json51.AddTypeData(iss);
        return iss;
    }
}
