// The Microsoft.PowerShell.Utility cmdlets our programs use that the System.Management.Automation
// package lacks, written from Microsoft's documentation (Windows PowerShell 5.1 parameter sets,
// reduced to what matters here). Management cmdlets (Test-Path, Get-Service, Get-ItemProperty...)
// are NOT here: they are the simulated Windows, in mock/*.psm1.
using System.Collections;
using System.Management.Automation;
using System.Management.Automation.Runspaces;
using System.Text;

namespace PlayPwshHost;

public static class Cmdlets
{
    public static IEnumerable<SessionStateCommandEntry> Entries()
    {
        (string name, Type type)[] list =
        {
            ("ConvertTo-Json", typeof(ConvertToJsonCommand)),
            ("ConvertFrom-Json", typeof(ConvertFromJsonCommand)),
            ("Select-Object", typeof(SelectObjectCommand)),
            ("Out-String", typeof(OutStringCommand)),
            ("Write-Output", typeof(WriteOutputCommand)),
            ("Get-Date", typeof(GetDateCommand)),
            ("New-Object", typeof(NewObjectCommand)),
            ("Start-Sleep", typeof(StartSleepCommand)),
            ("Invoke-PlayWindows", typeof(InvokePlayWindowsCommand)),
        };
        foreach (var (name, type) in list) yield return new SessionStateCmdletEntry(name, type, null);
        // The aliases 5.1 defines for them (the core ones, % ? ..., are in CreateDefault2 already).
        yield return new SessionStateAliasEntry("select", "Select-Object");
        yield return new SessionStateAliasEntry("echo", "Write-Output");
        yield return new SessionStateAliasEntry("write", "Write-Output");
        yield return new SessionStateAliasEntry("sleep", "Start-Sleep");
    }

    /** A value as text, roughly as Out-String shows it (no format data: name : value lines for objects). */
    public static string OutStringOf(object value)
    {
        var pso = value as PSObject;
        var v = pso?.BaseObject ?? value;
        switch (v)
        {
            case null: return "";
            case string s: return s;
            case IDictionary d:
                {
                    var sb = new StringBuilder();
                    int w = Math.Max(4, d.Keys.Cast<object>().Select(k => k.ToString().Length).DefaultIfEmpty(0).Max());
                    sb.Append("\r\n").Append("Name".PadRight(w)).Append(" Value\r\n").Append("----".PadRight(w)).Append(" -----\r\n");
                    foreach (DictionaryEntry e in d) sb.Append(e.Key.ToString().PadRight(w)).Append(' ').Append(PSObject.AsPSObject(e.Value ?? "").ToString()).Append("\r\n");
                    return sb.ToString();
                }
        }
        if (v is PSCustomObject || (!v.GetType().IsPrimitive && v is not Enum && v is not DateTime && v is not decimal && v is not IEnumerable))
        {
            var props = PSObject.AsPSObject(value).Properties.ToList();
            if (props.Count == 0) return PSObject.AsPSObject(value).ToString();
            int w = props.Max(p => p.Name.Length);
            var sb = new StringBuilder("\r\n");
            foreach (var p in props)
            {
                object pv; try { pv = p.Value; } catch { pv = null; }
                sb.Append(p.Name.PadRight(w)).Append(" : ").Append(pv == null ? "" : PSObject.AsPSObject(pv).ToString()).Append("\r\n");
            }
            return sb.ToString();
        }
        return PSObject.AsPSObject(value).ToString();
    }
}

[Cmdlet(VerbsCommon.Select, "Object", DefaultParameterSetName = "DefaultParameter")]
public sealed class SelectObjectCommand : PSCmdlet
{
    [Parameter(ValueFromPipeline = true)]
    public PSObject InputObject { get; set; } = System.Management.Automation.Internal.AutomationNull.Value;

    [Parameter(Position = 0)]
    public object[] Property { get; set; }

    [Parameter]
    public string[] ExcludeProperty { get; set; }

    [Parameter]
    public string ExpandProperty { get; set; }

    [Parameter]
    [ValidateRange(0, int.MaxValue)]
    public int First { get; set; }

    [Parameter]
    [ValidateRange(0, int.MaxValue)]
    public int Last { get; set; }

    [Parameter]
    [ValidateRange(0, int.MaxValue)]
    public int Skip { get; set; }

    [Parameter]
    public SwitchParameter Unique { get; set; }

    int _seen, _written;
    readonly List<PSObject> _last = new();
    readonly List<PSObject> _unique = new();

    protected override void ProcessRecord()
    {
        if (InputObject == System.Management.Automation.Internal.AutomationNull.Value) return;
        if (_seen++ < Skip) return;
        if (MyInvocation.BoundParameters.ContainsKey("Last")) { _last.Add(InputObject); if (_last.Count > Last) _last.RemoveAt(0); return; }
        if (MyInvocation.BoundParameters.ContainsKey("First") && _written >= First) return;
        _written++;
        Emit(InputObject);
    }

    protected override void EndProcessing()
    {
        foreach (var o in _last) Emit(o);
    }

    void Emit(PSObject input)
    {
        foreach (var o in Transform(input))
        {
            if (Unique)
            {
                if (_unique.Any(u => LanguagePrimitives.Equals(u, o, true))) continue;
                _unique.Add(o);
            }
            WriteObject(o);
        }
    }

    IEnumerable<PSObject> Transform(PSObject input)
    {
        List<KeyValuePair<string, object>> selected = null;
        if (Property != null)
        {
            selected = new();
            foreach (var p in Property) selected.AddRange(Select(input, p));
            if (ExcludeProperty != null)
                selected.RemoveAll(kv => ExcludeProperty.Any(x => WildcardPattern.Get(x, WildcardOptions.IgnoreCase).IsMatch(kv.Key)));
        }
        if (ExpandProperty != null)
        {
            var prop = input.Properties[ExpandProperty];
            if (prop == null && input.BaseObject is IDictionary d && d.Contains(ExpandProperty)) { var dv = d[ExpandProperty]; return Expand(dv, selected); }
            if (prop == null)
            {
                WriteError(new ErrorRecord(new PSArgumentException($"Property \"{ExpandProperty}\" cannot be found."), "ExpandPropertyNotFound,Microsoft.PowerShell.Commands.SelectObjectCommand", ErrorCategory.InvalidArgument, input));
                return Array.Empty<PSObject>();
            }
            return Expand(prop.Value, selected);
        }
        if (selected == null) return new[] { input };
        var result = new PSObject();
        result.TypeNames.Insert(0, "Selected." + (input.TypeNames.Count > 0 ? input.TypeNames[0] : "System.Object"));
        foreach (var kv in selected)
        {
            if (result.Properties[kv.Key] != null) continue;
            result.Properties.Add(new PSNoteProperty(kv.Key, kv.Value));
        }
        return new[] { result };
    }

    static IEnumerable<PSObject> Expand(object value, List<KeyValuePair<string, object>> selected)
    {
        var items = LanguagePrimitives.GetEnumerable(value);
        var list = new List<PSObject>();
        if (items == null) list.Add(PSObject.AsPSObject(value));
        else foreach (var x in items) list.Add(PSObject.AsPSObject(x));
        if (selected != null)
            foreach (var o in list)
                foreach (var kv in selected)
                    if (o.Properties[kv.Key] == null) o.Properties.Add(new PSNoteProperty(kv.Key, kv.Value));
        return list;
    }

    IEnumerable<KeyValuePair<string, object>> Select(PSObject input, object spec)
    {
        spec = spec is PSObject p ? p.BaseObject : spec;
        if (spec is IDictionary h) { yield return Calculated(input, h); yield break; }
        if (spec is ScriptBlock sb) { yield return new(sb.ToString(), Eval(sb, input)); yield break; }
        var name = spec?.ToString() ?? "";
        if (WildcardPattern.ContainsWildcardCharacters(name))
        {
            var pattern = WildcardPattern.Get(name, WildcardOptions.IgnoreCase);
            foreach (var prop in PropertiesOf(input)) if (pattern.IsMatch(prop.Key)) yield return prop;
            yield break;
        }
        // A missing property is selected as $null (5.1 does not complain).
        var found = PropertiesOf(input).Where(x => string.Equals(x.Key, name, StringComparison.OrdinalIgnoreCase)).ToList();
        yield return found.Count > 0 ? new(found[0].Key, found[0].Value) : new(name, null);
    }

    static IEnumerable<KeyValuePair<string, object>> PropertiesOf(PSObject input)
    {
        foreach (var p in input.Properties)
        {
            if ((p.MemberType & PSMemberTypes.Properties) == 0) continue;
            object v; try { v = p.Value; } catch { v = null; }
            yield return new(p.Name, v);
        }
    }

    KeyValuePair<string, object> Calculated(PSObject input, IDictionary h)
    {
        string name = null; object expr = null;
        foreach (DictionaryEntry e in h)
        {
            var k = e.Key.ToString();
            if (k.Length > 0 && ("name".StartsWith(k, StringComparison.OrdinalIgnoreCase) || "label".StartsWith(k, StringComparison.OrdinalIgnoreCase))) name = e.Value?.ToString();
            else if (k.Length > 0 && "expression".StartsWith(k, StringComparison.OrdinalIgnoreCase)) expr = e.Value is PSObject po ? po.BaseObject : e.Value;
            else throw new NotSupportedException($"The {k} key is not valid.");
        }
        if (expr == null) throw new NotSupportedException("The Expression key is missing.");
        if (expr is ScriptBlock sb) return new(name ?? sb.ToString(), Eval(sb, input));
        var pname = expr.ToString();
        var prop = input.Properties[pname];
        return new(name ?? pname, prop?.Value);
    }

    static object Eval(ScriptBlock sb, PSObject input)
    {
        var r = sb.InvokeWithContext(null, new List<PSVariable> { new("_", input), new("PSItem", input) });
        return r.Count switch { 0 => null, 1 => r[0], _ => r.Cast<object>().ToArray() };
    }
}

[Cmdlet(VerbsData.Out, "String")]
[OutputType(typeof(string))]
public sealed class OutStringCommand : PSCmdlet
{
    [Parameter(ValueFromPipeline = true)]
    public PSObject InputObject { get; set; } = System.Management.Automation.Internal.AutomationNull.Value;

    [Parameter] public SwitchParameter Stream { get; set; }
    [Parameter] public int Width { get; set; }

    readonly StringBuilder _sb = new();

    protected override void ProcessRecord()
    {
        if (InputObject == System.Management.Automation.Internal.AutomationNull.Value) return;
        var text = Cmdlets.OutStringOf(InputObject);
        if (Stream) { foreach (var l in text.Split("\r\n")) WriteObject(l); return; }
        _sb.Append(text).Append("\r\n");
    }

    protected override void EndProcessing()
    {
        if (!Stream) WriteObject(_sb.ToString());
    }
}

[Cmdlet(VerbsCommunications.Write, "Output")]
public sealed class WriteOutputCommand : PSCmdlet
{
    [Parameter(Mandatory = true, Position = 0, ValueFromPipeline = true, ValueFromRemainingArguments = true)]
    [AllowNull, AllowEmptyCollection]
    public PSObject InputObject { get; set; }

    [Parameter] public SwitchParameter NoEnumerate { get; set; }

    protected override void ProcessRecord()
    {
        if (InputObject == null) { WriteObject(null); return; }
        WriteObject(InputObject, !NoEnumerate);
    }
}

[Cmdlet(VerbsCommon.Get, "Date", DefaultParameterSetName = "net")]
public sealed class GetDateCommand : PSCmdlet
{
    [Parameter(Position = 0, ValueFromPipeline = true, ValueFromPipelineByPropertyName = true)]
    [Alias("LastWriteTime")]
    public DateTime Date { get; set; }

    [Parameter] public int Year { get; set; }
    [Parameter] public int Month { get; set; }
    [Parameter] public int Day { get; set; }
    [Parameter] public int Hour { get; set; }
    [Parameter] public int Minute { get; set; }
    [Parameter] public int Second { get; set; }
    [Parameter] public int Millisecond { get; set; }
    [Parameter(ParameterSetName = "net")] public string Format { get; set; }

    protected override void ProcessRecord()
    {
        var b = MyInvocation.BoundParameters;
        var d = b.ContainsKey("Date") ? Date : Clock.Now;
        if (b.ContainsKey("Year")) d = d.AddYears(Year - d.Year);
        if (b.ContainsKey("Month")) d = d.AddMonths(Month - d.Month);
        if (b.ContainsKey("Day")) d = d.AddDays(Day - d.Day);
        if (b.ContainsKey("Hour")) d = d.AddHours(Hour - d.Hour);
        if (b.ContainsKey("Minute")) d = d.AddMinutes(Minute - d.Minute);
        if (b.ContainsKey("Second")) d = d.AddSeconds(Second - d.Second);
        if (b.ContainsKey("Millisecond")) d = d.AddMilliseconds(Millisecond - d.Millisecond);
        if (Format != null) { WriteObject(d.ToString(Format, System.Globalization.CultureInfo.CurrentCulture)); return; }
        WriteObject(d);
    }
}

[Cmdlet(VerbsCommon.New, "Object", DefaultParameterSetName = "Net")]
public sealed class NewObjectCommand : PSCmdlet
{
    [Parameter(ParameterSetName = "Net", Mandatory = true, Position = 0)]
    public string TypeName { get; set; }

    [Parameter(ParameterSetName = "Com", Mandatory = true, Position = 0)]
    public string ComObject { get; set; }

    [Parameter(ParameterSetName = "Net", Position = 1)]
    [Alias("Args")]
    public object[] ArgumentList { get; set; }

    [Parameter]
    public IDictionary Property { get; set; }

    static readonly ScriptBlock s_construct = ScriptBlock.Create("param($t, $a) if ($null -eq $a) { , $t::new() } else { , $t::new.Invoke($a) }");

    protected override void EndProcessing()
    {
        if (ComObject != null)
            ThrowTerminatingError(new ErrorRecord(new PSNotSupportedException($"Retrieving the COM class factory for component {ComObject} failed: COM objects do not exist on the simulated node."), "NoCOMClassIdentified,Microsoft.PowerShell.Commands.NewObjectCommand", ErrorCategory.ResourceUnavailable, ComObject));
        Type type;
        try { type = LanguagePrimitives.ConvertTo<Type>(TypeName); }
        catch
        {
            ThrowTerminatingError(new ErrorRecord(new PSArgumentException($"Cannot find type [{TypeName}]: verify that the assembly containing this type is loaded."), "TypeNotFound,Microsoft.PowerShell.Commands.NewObjectCommand", ErrorCategory.InvalidType, TypeName));
            return;
        }
        object result;
        if (type.IsArray)
        {
            var n = ArgumentList is { Length: > 0 } ? LanguagePrimitives.ConvertTo<int>(ArgumentList[0]) : 0;
            result = Array.CreateInstance(type.GetElementType()!, n);
        }
        else if (type == typeof(PSObject) || type == typeof(PSCustomObject))
        {
            result = new PSObject();
        }
        else
        {
            var r = s_construct.Invoke(type, ArgumentList);
            result = r.Count > 0 ? r[0] : null;
        }
        if (Property != null)
        {
            var pso = PSObject.AsPSObject(result);
            foreach (DictionaryEntry e in Property)
            {
                var name = e.Key.ToString();
                var prop = pso.Properties[name];
                if (prop != null) prop.Value = e.Value;
                else if (pso.BaseObject is PSCustomObject) pso.Properties.Add(new PSNoteProperty(name, e.Value));
                else ThrowTerminatingError(new ErrorRecord(new PSArgumentException($"The member \"{name}\" was not found for the specified .NET object."), "InvalidOperationException,Microsoft.PowerShell.Commands.NewObjectCommand", ErrorCategory.InvalidOperation, name));
            }
            WriteObject(pso);
            return;
        }
        WriteObject(result);
    }
}

[Cmdlet(VerbsLifecycle.Start, "Sleep", DefaultParameterSetName = "Seconds")]
public sealed class StartSleepCommand : PSCmdlet
{
    // 5.1: -Seconds is an int (7 takes a double).
    [Parameter(Mandatory = true, Position = 0, ParameterSetName = "Seconds", ValueFromPipeline = true, ValueFromPipelineByPropertyName = true)]
    public int Seconds { get; set; }

    [Parameter(Mandatory = true, ParameterSetName = "Milliseconds", ValueFromPipelineByPropertyName = true)]
    [Alias("ms")]
    public int Milliseconds { get; set; }

    protected override void ProcessRecord()
    {
        Clock.Sleep(ParameterSetName == "Seconds" ? TimeSpan.FromSeconds(Seconds) : TimeSpan.FromMilliseconds(Milliseconds));
    }
}
