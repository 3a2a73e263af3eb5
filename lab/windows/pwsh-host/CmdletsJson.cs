// ConvertTo-Json and ConvertFrom-Json as Windows PowerShell 5.1 behaves (written from Microsoft's
// documentation and 5.1's observable behaviour, not from PowerShell's source). What 5.1 does and
// PowerShell 7 does not, kept on purpose so that tests catch what a real node would do:
//  - enums are written as their numbers (7 has -EnumsAsStrings, 5.1 has nothing);
//  - DateTime is written as "\/Date(<ms since 1970 UTC>)\/";
//  - < > & ' in strings are written as \u003c \u003e \u0026 \u0027 (JavaScriptSerializer);
//  - beyond -Depth (default 2) an object is written as its ToString() text, silently;
//  - a dictionary key that is not a string is an error;
//  - piped input: one object is written as itself, several as one array; -InputObject @(x) is an array;
//  - ConvertFrom-Json writes a JSON array as ONE object (an object[]), not enumerated;
//    numbers are Int32, else Int64, else Decimal, else Double; no -Depth, -AsHashtable, -NoEnumerate.
// Not reproduced: the {"value":[...],"Count":n} of an array wrapped in a PSObject (5.1's Array.Count
// type data), "\/Date()\/" strings read back as DateTime, and 5.1's exact pretty-print indentation.
using System.Collections;
using System.Globalization;
using System.Management.Automation;
using System.Text;

namespace PlayPwshHost;

[Cmdlet(VerbsData.ConvertTo, "Json")]
[OutputType(typeof(string))]
public sealed class ConvertToJsonCommand : PSCmdlet
{
    [Parameter(Mandatory = true, Position = 0, ValueFromPipeline = true)]
    [AllowNull]
    public object InputObject { get; set; }

    [Parameter]
    [ValidateRange(1, int.MaxValue)]
    public int Depth { get; set; } = 2;

    [Parameter]
    public SwitchParameter Compress { get; set; }

    readonly List<object> _inputs = new();

    protected override void ProcessRecord() => _inputs.Add(InputObject);

    protected override void EndProcessing()
    {
        if (_inputs.Count == 0) return;
        object value = _inputs.Count == 1 ? _inputs[0] : _inputs.ToArray();
        var sb = new StringBuilder();
        Serialize(sb, value, 0, Compress ? -1 : 0);
        WriteObject(sb.ToString());
    }

    static bool IsPrimitive(object v) => v is string or char or bool or DateTime or DateTimeOffset or Guid or Uri or Enum || Json.IsNumber(v);

    static IEnumerable<PSPropertyInfo> InstanceNotes(PSObject p) =>
        p.Properties.Where(x => x.IsInstance && x.MemberType == PSMemberTypes.NoteProperty);

    /** indent: -1 compressed, else the current indentation level. */
    void Serialize(StringBuilder sb, object value, int level, int indent)
    {
        PSObject wrapper = value as PSObject;
        object v = wrapper != null ? wrapper.BaseObject : value;
        if (v == null || v is DBNull || v == System.Management.Automation.Internal.AutomationNull.Value) { sb.Append("null"); return; }
        if (IsPrimitive(v))
        {
            // 5.1: a primitive carrying instance note properties is written as {"value": ..., notes...}.
            var notes = wrapper == null ? new List<PSPropertyInfo>() : InstanceNotes(wrapper).ToList();
            if (notes.Count == 0 || v is PSCustomObject) { WritePrimitive(sb, v); return; }
            var d = new List<KeyValuePair<string, object>> { new("value", v) };
            d.AddRange(notes.Select(n => new KeyValuePair<string, object>(n.Name, n.Value)));
            WriteObjectBody(sb, d, level, indent);
            return;
        }
        if (level > Depth)
        {
            // Beyond -Depth: the object's text, as 5.1 does (no warning).
            Json.WriteString(sb, (wrapper ?? PSObject.AsPSObject(v)).ToString(), true);
            return;
        }
        if (v is IDictionary dict)
        {
            var entries = new List<KeyValuePair<string, object>>();
            foreach (DictionaryEntry e in dict)
            {
                if (e.Key is not string key)
                    throw new InvalidOperationException($"The type '{v.GetType().FullName}' is not supported for serialization or deserialization of a dictionary. Keys must be strings.");
                entries.Add(new(key, e.Value));
            }
            WriteObjectBody(sb, entries, level, indent);
            return;
        }
        if (v is IEnumerable list && v is not PSCustomObject)
        {
            var items = list.Cast<object>().ToList();
            if (items.Count == 0) { sb.Append(indent < 0 ? "[]" : "[\r\n\r\n" + Pad(indent) + "]"); return; }
            sb.Append('[');
            for (int i = 0; i < items.Count; i++)
            {
                if (i > 0) sb.Append(',');
                if (indent >= 0) sb.Append("\r\n").Append(Pad(indent + 1));
                Serialize(sb, items[i], level + 1, indent < 0 ? -1 : indent + 1);
            }
            if (indent >= 0) sb.Append("\r\n").Append(Pad(indent));
            sb.Append(']');
            return;
        }
        // Any other object: its properties (note, adapted .NET, script, alias), in order.
        var pso = wrapper ?? PSObject.AsPSObject(v);
        var props = new List<KeyValuePair<string, object>>();
        foreach (var p in pso.Properties)
        {
            if ((p.MemberType & (PSMemberTypes.Property | PSMemberTypes.NoteProperty | PSMemberTypes.AliasProperty | PSMemberTypes.ScriptProperty | PSMemberTypes.CodeProperty)) == 0) continue;
            object pv;
            try { pv = p.Value; } catch { pv = null; }
            props.Add(new(p.Name, pv));
        }
        WriteObjectBody(sb, props, level, indent);
    }

    static string Pad(int indent) => new string(' ', 4 * Math.Max(indent, 0));

    void WriteObjectBody(StringBuilder sb, List<KeyValuePair<string, object>> entries, int level, int indent)
    {
        sb.Append('{');
        for (int i = 0; i < entries.Count; i++)
        {
            if (i > 0) sb.Append(',');
            if (indent >= 0) sb.Append("\r\n").Append(Pad(indent + 1));
            Json.WriteString(sb, entries[i].Key, true);
            sb.Append(indent >= 0 ? ":  " : ":");
            Serialize(sb, entries[i].Value, level + 1, indent < 0 ? -1 : indent + 1);
        }
        if (indent >= 0) sb.Append("\r\n").Append(Pad(indent));
        sb.Append('}');
    }

    static void WritePrimitive(StringBuilder sb, object v)
    {
        switch (v)
        {
            case string s: Json.WriteString(sb, s, true); return;
            case char c: Json.WriteString(sb, c.ToString(), true); return;
            case bool b: sb.Append(b ? "true" : "false"); return;
            case Enum e: sb.Append(Convert.ToInt64(e, CultureInfo.InvariantCulture).ToString(CultureInfo.InvariantCulture)); return;
            case DateTime dt:
                {
                    long ms = (dt.ToUniversalTime().Ticks - new DateTime(1970, 1, 1, 0, 0, 0, DateTimeKind.Utc).Ticks) / 10000;
                    sb.Append("\"\\/Date(").Append(ms.ToString(CultureInfo.InvariantCulture)).Append(")\\/\"");
                    return;
                }
            case DateTimeOffset dto: WritePrimitive(sb, dto.UtcDateTime); return;
            case double d: sb.Append(double.IsFinite(d) ? d.ToString("R", CultureInfo.InvariantCulture) : "\"" + d.ToString(CultureInfo.InvariantCulture) + "\""); return;
            case float f: sb.Append(float.IsFinite(f) ? f.ToString("R", CultureInfo.InvariantCulture) : "\"" + f.ToString(CultureInfo.InvariantCulture) + "\""); return;
            case IFormattable n when Json.IsNumber(v): sb.Append(n.ToString(null, CultureInfo.InvariantCulture)); return;
            default: Json.WriteString(sb, v.ToString(), true); return;
        }
    }
}

[Cmdlet(VerbsData.ConvertFrom, "Json")]
public sealed class ConvertFromJsonCommand : PSCmdlet
{
    [Parameter(Mandatory = true, Position = 0, ValueFromPipeline = true)]
    [AllowEmptyString]
    public string InputObject { get; set; }

    readonly List<string> _buffer = new();

    protected override void ProcessRecord() => _buffer.Add(InputObject);

    protected override void EndProcessing()
    {
        var text = string.Join("\n", _buffer);
        if (string.IsNullOrWhiteSpace(text)) return;
        object value;
        try
        {
            value = new Json.Reader(text, () => new System.Collections.Specialized.OrderedDictionary(StringComparer.OrdinalIgnoreCase), a => a).ReadDocument();
        }
        catch (FormatException e)
        {
            var snippet = text.Trim();
            if (snippet.Length > 40) snippet = snippet.Substring(0, 40);
            ThrowTerminatingError(new ErrorRecord(new ArgumentException(e.Message.StartsWith("Cannot convert") ? e.Message : $"Invalid JSON primitive: {snippet}.", e),
                "System.ArgumentException,Microsoft.PowerShell.Commands.ConvertFromJsonCommand", ErrorCategory.NotSpecified, text));
            return;
        }
        // 5.1: a JSON array is written as one object[] (the pipeline does not enumerate it).
        WriteObject(ToPs(value), false);
    }

    static object ToPs(object v)
    {
        switch (v)
        {
            case IDictionary d:
                {
                    var o = new PSObject();
                    foreach (DictionaryEntry e in d) o.Properties.Add(new PSNoteProperty((string)e.Key, ToPs(e.Value)));
                    return o;
                }
            case List<object> l: return l.Select(ToPs).ToArray();
            default: return v;
        }
    }
}
