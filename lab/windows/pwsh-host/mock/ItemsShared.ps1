# Helpers shared by the item mocks (Items.psm1, ItemProperties.psm1), dot-sourced into each so they
# stay private to those modules: errors as the providers write them, the provider's PS* notes, and
# items as Get-Item gives them (a RegistryKey from the host's shim, or a FileInfo-shaped object).

$script:Hives = @{ HKEY_LOCAL_MACHINE = 'LocalMachine'; HKEY_CURRENT_USER = 'CurrentUser'; HKEY_CLASSES_ROOT = 'ClassesRoot'; HKEY_USERS = 'Users' }
$script:Drives = @{ HKEY_LOCAL_MACHINE = 'HKLM'; HKEY_CURRENT_USER = 'HKCU'; HKEY_CLASSES_ROOT = 'HKCR'; HKEY_USERS = 'HKU' }
$script:Kinds = @('String', 'ExpandString', 'Binary', 'DWord', 'MultiString', 'QWord', 'Unknown')

function New-PlayError {
    param([System.Exception]$Exception, [string]$Id, [System.Management.Automation.ErrorCategory]$Category, $Target)
    New-Object System.Management.Automation.ErrorRecord $Exception, $Id, $Category, $Target
}

function Write-PlayPathNotFound {
    param($Cmdlet, [string]$Path, [string]$Command)
    $e = New-Object System.Management.Automation.ItemNotFoundException ("Cannot find path '{0}' because it does not exist." -f $Path)
    $Cmdlet.WriteError((New-PlayError $e "PathNotFound,Microsoft.PowerShell.Commands.$Command" ObjectNotFound $Path))
}

# What the node says is at a path; a drive it lacks or a malformed path is the cmdlet's error, $null.
function Resolve-PlayItem {
    param($Cmdlet, [string]$Path, [string]$Command)
    try {
        return Invoke-PlayWindows Item.Get @{ path = $Path }
    } catch {
        $text = $_.Exception.Message
        if ($text -like 'Cannot find drive.*') {
            $e = New-Object System.Management.Automation.DriveNotFoundException $text
            $Cmdlet.WriteError((New-PlayError $e "DriveNotFound,Microsoft.PowerShell.Commands.$Command" ObjectNotFound $Path))
        } else {
            $e = New-Object System.ArgumentException $text
            $Cmdlet.WriteError((New-PlayError $e "ItemExistsArgumentError,Microsoft.PowerShell.Commands.$Command" InvalidArgument $Path))
        }
        return $null
    }
}

# Resolved items that exist; each missing one is reported.
function Get-PlayExistingItems {
    param($Cmdlet, [string[]]$Paths, [string]$Command)
    foreach ($p in $Paths) {
        $i = Resolve-PlayItem $Cmdlet $p $Command
        if ($null -eq $i) { continue }
        if (-not $i.exists) { Write-PlayPathNotFound $Cmdlet $i.path $Command; continue }
        $i
    }
}

function Add-PlayNote {
    param($Object, [string]$Name, $Value)
    $Object.PSObject.Properties.Add([psnoteproperty]::new($Name, $Value))
}

# The provider's PS* notes on everything it writes.
function Add-PlayProviderNotes {
    param($Object, $Item)
    if ($Item.provider -eq 'Registry') {
        $provider = 'Microsoft.PowerShell.Core\Registry'
        $full = $Item.providerPath
        $parent = ''
        if ($Item.subKey -ne '') { $parent = $provider + '::' + $full.Substring(0, $full.LastIndexOf('\')) }
        $drive = $script:Drives[[string]$Item.hive]
    } else {
        $provider = 'Microsoft.PowerShell.Core\FileSystem'
        $full = $Item.path
        $parent = ''
        if ($Item.parent -ne '') { $parent = $provider + '::' + $Item.parent }
        $drive = $Item.path.Substring(0, 1)
    }
    Add-PlayNote $Object 'PSPath' ($provider + '::' + $full)
    Add-PlayNote $Object 'PSParentPath' $parent
    Add-PlayNote $Object 'PSChildName' ([string]$Item.name)
    Add-PlayNote $Object 'PSDrive' $drive
    Add-PlayNote $Object 'PSProvider' $provider
}

# An item as Get-Item gives it: a RegistryKey, or a FileInfo/DirectoryInfo-shaped object.
function ConvertTo-PlayItem {
    param($Item)
    if ($Item.provider -eq 'Registry') {
        $key = [Microsoft.Win32.RegistryKey]::OpenBaseKey([Microsoft.Win32.RegistryHive]$script:Hives[[string]$Item.hive], [Microsoft.Win32.RegistryView]::Registry64)
        if ($Item.subKey -ne '') { $key = $key.OpenSubKey([string]$Item.subKey) }
        $o = [psobject]::AsPSObject($key)
        Add-PlayProviderNotes $o $Item
        Add-PlayNote $o 'PSIsContainer' $true
        $o.PSObject.Properties.Add([psscriptproperty]::new('Property', { @($this.GetValueNames() | ForEach-Object { if ($_ -eq '') { '(default)' } else { $_ } }) }))
        $o.PSObject.Properties.Add([psscriptproperty]::new('SubKeyCount', { $this.GetSubKeyNames().Length }))
        $o.PSObject.Properties.Add([psscriptproperty]::new('ValueCount', { $this.GetValueNames().Length }))
        return $o
    }
    $path = [string]$Item.path
    $name = [string]$Item.name
    if ($Item.container) {
        $o = [pscustomobject]@{ Name = $name; FullName = $path; Exists = $true; Attributes = [System.IO.FileAttributes]::Directory; Mode = 'd-----' }
        Add-PlayNote $o 'Parent' ([string]$Item.parent)
        $o.PSObject.TypeNames.Insert(0, 'System.IO.DirectoryInfo')
    } else {
        $extension = ''
        if ($name.LastIndexOf('.') -ge 0) { $extension = $name.Substring($name.LastIndexOf('.')) }
        $o = [pscustomobject]@{ Name = $name; FullName = $path; Length = [int64]$Item.length; Exists = $true; Extension = $extension; DirectoryName = [string]$Item.parent; Attributes = [System.IO.FileAttributes]::Archive; Mode = '-a----' }
        $o.PSObject.TypeNames.Insert(0, 'System.IO.FileInfo')
    }
    Add-PlayProviderNotes $o $Item
    Add-PlayNote $o 'PSIsContainer' ([bool]$Item.container)
    $o.PSObject.Methods.Add([psscriptmethod]::new('ToString', { $this.FullName }))
    return $o
}

