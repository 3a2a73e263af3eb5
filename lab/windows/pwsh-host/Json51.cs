// A 5.1 shim: ConvertTo-Json writes what Windows PowerShell 5.1's does. The object walk is PowerShell's
// own (JsonObject.ConvertToJson: -Depth, note and extended properties, dictionaries, enums as numbers),
// the same in 5.1 and 7; what differs is the writer. 5.1 hands the walked value to .NET Framework's
// JavaScriptSerializer and indents its text itself; 7 uses Json.NET. So, rewritten here:
//  - strings escaped as JavaScriptSerializer does (HttpUtility.JavaScriptStringEncode): ' < > & and
//    U+0085 U+2028 U+2029 as \u0027 \u003c ..., control characters as \uXXXX or \b \f \n \r \t;
//    runner/core/secret.ts's redaction knows these forms;
//  - DateTime and DateTimeOffset as "\/Date(ms since 1970 UTC)\/" (Json.NET writes ISO 8601 text: our
//    functions must convert dates to strings themselves, and a missed one must show here);
//  - a double without a fraction as 1, not 1.0;
//  - without -Compress, 5.1's indentation: 4 spaces a level, "key":  value, and a nested object or
//    list indented from the column its key ends at;
//  - beyond -Depth the value's text, silently (7 warns); $null piped in is skipped; -Depth over 100
//    is an error before anything is written;
//  - 5.1's type data for System.Array (Count, an alias of Length): an array wrapped in a PSObject is
//    written {"value":[...],"Count":n}, as 5.1 does.
using System.Globalization;
using System.Management.Automation;
using System.Management.Automation.Runspaces;
using System.Text;
using Microsoft.PowerShell.Commands;

namespace PlayPwshHost;

[Cmdlet(VerbsData.ConvertTo, "Json")]
[OutputType(typeof(string))]
public sealed class ConvertToJson51Command : PSCmdlet
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

    protected override void BeginProcessing()
    {
        if (Depth > 100)
            ThrowTerminatingError(new ErrorRecord(new InvalidOperationException("The maximum depth allowed for serialization is 100."),
                "ReachedMaximumDepthAllowed,Microsoft.PowerShell.Commands.ConvertToJsonCommand", ErrorCategory.InvalidOperation, null));
    }

    protected override void ProcessRecord()
    {
        if (InputObject != null) _inputs.Add(InputObject);
    }

    protected override void EndProcessing()
    {
        if (_inputs.Count == 0) return;
        object value = _inputs.Count == 1 ? _inputs[0] : _inputs.ToArray();
        // No cmdlet in the context: 7 would warn when it cuts at -Depth, 5.1 does not.
        var context = new JsonObject.ConvertToJsonContext(Depth, false, true, Newtonsoft.Json.StringEscapeHandling.Default, null, CancellationToken.None);
        var json = Json51.Rewrite(JsonObject.ConvertToJson(value, in context));
        WriteObject(Compress ? json : Json51.Indent(json));
    }
}

public static class Json51
{
    /** Json.NET writes dates through this converter, as JavaScriptSerializer does: "\/Date(ms)\/". */
    sealed class MicrosoftDateConverter : Newtonsoft.Json.JsonConverter
    {
        static readonly long s_epoch = new DateTime(1970, 1, 1, 0, 0, 0, DateTimeKind.Utc).Ticks;
        public override bool CanRead => false;
        public override bool CanConvert(Type t) => t == typeof(DateTime) || t == typeof(DateTimeOffset);
        public override object ReadJson(Newtonsoft.Json.JsonReader r, Type t, object v, Newtonsoft.Json.JsonSerializer s) => throw new NotSupportedException();
        public override void WriteJson(Newtonsoft.Json.JsonWriter writer, object value, Newtonsoft.Json.JsonSerializer s)
        {
            var utc = value is DateTimeOffset o ? o.UtcDateTime : ((DateTime)value).ToUniversalTime();
            writer.WriteRawValue("\"\\/Date(" + ((utc.Ticks - s_epoch) / 10000).ToString(CultureInfo.InvariantCulture) + ")\\/\"");
        }
    }

    /** Installs the date converter (process-wide: only ConvertTo-Json serializes with Json.NET here) and 5.1's Array type data. */
    public static void AddTypeData(InitialSessionState iss)
    {
        Newtonsoft.Json.JsonConvert.DefaultSettings = () => new Newtonsoft.Json.JsonSerializerSettings { Converters = { new MicrosoftDateConverter() } };
        var array = new TypeData(typeof(Array));
        array.Members.Add("Count", new AliasPropertyData("Count", "Length"));
        iss.Types.Add(new SessionStateTypeEntry(array, false));
    }

    /**
     * For ConvertFrom-Json (mock/Compat51.psm1): JavaScriptSerializer's refusal of JSON whose last
     * object or array is not closed, which Json.NET reads without complaint; null when all are closed.
     * Its message quotes the input, as 5.1's does ("... expected. (position): text").
     */
    public static string Unclosed(string json)
    {
        var open = new Stack<char>();
        for (int i = 0; i < json.Length; i++)
        {
            char c = json[i];
            if (c == '"') { i = StringEnd(json, i); continue; }
            if (c == '{' || c == '[') open.Push(c);
            else if ((c == '}' || c == ']') && open.Count > 0) open.Pop();
        }
        if (open.Count == 0) return null;
        var what = open.Peek() == '[' ? "Invalid array passed in, ']' expected." : "Invalid object passed in, ':' or '}' expected.";
        return $"{what} ({json.Length}): {json}";
    }

    /** Compact Json.NET text to JavaScriptSerializer's: strings re-escaped, 1.0 as 1; dates kept as written. */
    public static string Rewrite(string json)
    {
        var sb = new StringBuilder(json.Length + 16);
        for (int i = 0; i < json.Length; i++)
        {
            char c = json[i];
            if (c == '"')
            {
                int end = StringEnd(json, i);
                var raw = json.Substring(i, end - i + 1);
                if (raw.StartsWith("\"\\/Date(", StringComparison.Ordinal)) sb.Append(raw);
                else WriteString(sb, Newtonsoft.Json.JsonConvert.DeserializeObject<string>(raw));
                i = end;
            }
            else if (c == '-' || (c >= '0' && c <= '9'))
            {
                int end = i;
                while (end + 1 < json.Length && "+-.eE0123456789".IndexOf(json[end + 1]) >= 0) end++;
                var number = json.Substring(i, end - i + 1);
                sb.Append(number.EndsWith(".0", StringComparison.Ordinal) ? number[..^2] : number);
                i = end;
            }
            else sb.Append(c);
        }
        return sb.ToString();
    }

    static int StringEnd(string json, int open)
    {
        for (int i = open + 1; i < json.Length; i++)
        {
            if (json[i] == '\\') i++;
            else if (json[i] == '"') return i;
        }
        return json.Length;
    }

    /** A string as JavaScriptSerializer writes it (HttpUtility.JavaScriptStringEncode, in quotes). */
    public static void WriteString(StringBuilder sb, string s)
    {
        sb.Append('"');
        foreach (char c in s)
        {
            switch (c)
            {
                case '"': sb.Append("\\\""); break;
                case '\\': sb.Append("\\\\"); break;
                case '\b': sb.Append("\\b"); break;
                case '\f': sb.Append("\\f"); break;
                case '\n': sb.Append("\\n"); break;
                case '\r': sb.Append("\\r"); break;
                case '\t': sb.Append("\\t"); break;
                default:
                    if (c < ' ' || c == '\'' || c == '<' || c == '>' || c == '&' || c == '\u0085' || c == '\u2028' || c == '\u2029')
                        sb.Append("\\u").Append(((int)c).ToString("x4", CultureInfo.InvariantCulture));
                    else sb.Append(c);
                    break;
            }
        }
        sb.Append('"');
    }

    /** 5.1's indentation of compact JSON (ConvertTo-Json without -Compress): see the header. */
    public static string Indent(string json)
    {
        if (json.Length == 0 || (json[0] != '{' && json[0] != '[')) return json;
        var sb = new StringBuilder(json.Length * 2);
        sb.Append(json[0]);
        new Indenter(json, sb).Block(json[0] == '{', 1, "", 0);
        return sb.ToString();
    }

    sealed class Indenter
    {
        readonly string _json;
        readonly StringBuilder _sb;
        public Indenter(string json, StringBuilder sb) { _json = json; _sb = sb; }

        /**
         * The members of an object or list opened just before `i`, each on its own line at `pad` plus
         * `extra` columns plus 4; the closing bracket at `pad` plus `extra`. In an object, a nested
         * value is indented from where its key ends (the key, the colon and two spaces). Returns the
         * index of the closing bracket.
         */
        public int Block(bool isObject, int i, string pad, int extra)
        {
            _sb.Append("\r\n");
            string inner = pad + new string(' ', extra + 4);
            bool lineStart = true, inKey = isObject;
            int keyWidth = 0;
            for (; i < _json.Length; i++)
            {
                char c = _json[i];
                if (c == '}' || c == ']')
                {
                    _sb.Append("\r\n").Append(pad).Append(' ', extra).Append(c);
                    return i;
                }
                if (c == ',')
                {
                    _sb.Append(",\r\n");
                    lineStart = true; inKey = isObject; keyWidth = 0;
                    continue;
                }
                if (c == ':' && isObject)
                {
                    _sb.Append(":  ");
                    keyWidth += 3; inKey = false;
                    continue;
                }
                if (lineStart) _sb.Append(inner);
                lineStart = false;
                if (c == '{' || c == '[')
                {
                    _sb.Append(c);
                    i = Block(c == '{', i + 1, inner, isObject ? keyWidth : 0);
                }
                else if (c == '"')
                {
                    int end = StringEnd(_json, i);
                    _sb.Append(_json, i, end - i + 1);
                    if (inKey) keyWidth += end - i + 1;
                    i = end;
                }
                else
                {
                    _sb.Append(c);
                    if (inKey) keyWidth++;
                }
            }
            throw new FormatException("unterminated JSON object or list");
        }
    }
}
