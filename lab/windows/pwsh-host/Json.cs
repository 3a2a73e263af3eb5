// Plain JSON for the protocol and the model (not PowerShell's ConvertTo-Json: see CmdletsJson.cs),
// and the model's conversion to and from PowerShell values: objects become case-insensitive ordered
// hashtables (Windows names are case-insensitive; `$PlayNode.services['W32Time']` and
// `$PlayNode.services.w32time` both work), arrays object[].
using System.Collections;
using System.Collections.Specialized;
using System.Globalization;
using System.Management.Automation;
using System.Text;

namespace PlayPwshHost;

public static class Json
{
    // --- reading -----------------------------------------------------------------------------
    public sealed class Reader
    {
        readonly string _s; int _i;
        readonly Func<IDictionary> _newObject;
        readonly Func<List<object>, object> _finishArray;
        public Reader(string s, Func<IDictionary> newObject, Func<List<object>, object> finishArray) { _s = s; _newObject = newObject; _finishArray = finishArray; }

        public object ReadDocument()
        {
            Ws();
            var v = Value();
            Ws();
            if (_i != _s.Length) throw Error("unexpected text after the JSON value");
            return v;
        }
        FormatException Error(string what) => new FormatException($"Invalid JSON at character {_i}: {what}");
        void Ws() { while (_i < _s.Length && (_s[_i] == ' ' || _s[_i] == '\t' || _s[_i] == '\n' || _s[_i] == '\r' || _s[_i] == '\uFEFF')) _i++; }
        object Value()
        {
            if (_i >= _s.Length) throw Error("unexpected end");
            char c = _s[_i];
            switch (c)
            {
                case '{':
                    {
                        _i++; var o = _newObject(); Ws();
                        if (_i < _s.Length && _s[_i] == '}') { _i++; return o; }
                        while (true)
                        {
                            Ws(); if (_i >= _s.Length || _s[_i] != '"') throw Error("expected a property name");
                            var k = Str(); Ws();
                            if (_i >= _s.Length || _s[_i] != ':') throw Error("expected ':'");
                            _i++; Ws();
                            var v = Value();
                            if (o.Contains(k)) throw new FormatException($"Cannot convert the JSON string because it contains keys with different casing or duplicated keys: '{k}'");
                            o[k] = v; Ws();
                            if (_i < _s.Length && _s[_i] == ',') { _i++; continue; }
                            if (_i < _s.Length && _s[_i] == '}') { _i++; return o; }
                            throw Error("expected ',' or '}'");
                        }
                    }
                case '[':
                    {
                        _i++; var a = new List<object>(); Ws();
                        if (_i < _s.Length && _s[_i] == ']') { _i++; return _finishArray(a); }
                        while (true)
                        {
                            Ws(); a.Add(Value()); Ws();
                            if (_i < _s.Length && _s[_i] == ',') { _i++; continue; }
                            if (_i < _s.Length && _s[_i] == ']') { _i++; return _finishArray(a); }
                            throw Error("expected ',' or ']'");
                        }
                    }
                case '"': return Str();
                case 't': Lit("true"); return true;
                case 'f': Lit("false"); return false;
                case 'n': Lit("null"); return null;
                default: return Num();
            }
        }
        void Lit(string w) { if (string.CompareOrdinal(_s, _i, w, 0, w.Length) != 0) throw Error("invalid literal"); _i += w.Length; }
        string Str()
        {
            _i++; var sb = new StringBuilder();
            while (true)
            {
                if (_i >= _s.Length) throw Error("unterminated string");
                char c = _s[_i++];
                if (c == '"') return sb.ToString();
                if (c != '\\') { sb.Append(c); continue; }
                if (_i >= _s.Length) throw Error("unterminated escape");
                char e = _s[_i++];
                switch (e)
                {
                    case '"': sb.Append('"'); break;
                    case '\\': sb.Append('\\'); break;
                    case '/': sb.Append('/'); break;
                    case 'b': sb.Append('\b'); break;
                    case 'f': sb.Append('\f'); break;
                    case 'n': sb.Append('\n'); break;
                    case 'r': sb.Append('\r'); break;
                    case 't': sb.Append('\t'); break;
                    case 'u':
                        if (_i + 4 > _s.Length) throw Error("bad \\u escape");
                        sb.Append((char)int.Parse(_s.AsSpan(_i, 4), NumberStyles.HexNumber)); _i += 4; break;
                    default: throw Error("bad escape");
                }
            }
        }
        object Num()
        {
            int start = _i;
            if (_i < _s.Length && _s[_i] == '-') _i++;
            while (_i < _s.Length && (char.IsDigit(_s[_i]) || _s[_i] == '.' || _s[_i] == 'e' || _s[_i] == 'E' || _s[_i] == '+' || _s[_i] == '-')) _i++;
            var t = _s.Substring(start, _i - start);
            if (t.Length == 0) throw Error("invalid JSON primitive");
            // As 5.1's JavaScriptSerializer: Int32, else Int64, else Decimal, else Double.
            if (int.TryParse(t, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out var i32)) return i32;
            if (long.TryParse(t, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out var i64)) return i64;
            if (decimal.TryParse(t, NumberStyles.Float, CultureInfo.InvariantCulture, out var d)) return d;
            if (double.TryParse(t, NumberStyles.Float, CultureInfo.InvariantCulture, out var dbl)) return dbl;
            throw Error("invalid number " + t);
        }
    }

    /** Protocol JSON: objects as OrderedDictionary, arrays as List<object>. */
    public static object Parse(string s) => new Reader(s, () => new OrderedDictionary(), a => a).ReadDocument();

    // --- writing (protocol and model; standard JSON) -----------------------------------------
    public static string Write(object v, bool pretty)
    {
        var sb = new StringBuilder();
        WriteValue(sb, v, 0);
        return sb.ToString();
    }

    static void WriteValue(StringBuilder sb, object v, int depth)
    {
        if (depth > 100) throw new InvalidOperationException("the value is nested too deeply (a cycle?)");
        if (v is PSObject pso) v = pso.BaseObject;
        switch (v)
        {
            case null: sb.Append("null"); return;
            case string s: WriteString(sb, s, false); return;
            case char c: WriteString(sb, c.ToString(), false); return;
            case bool b: sb.Append(b ? "true" : "false"); return;
            case Enum e: sb.Append(Convert.ToInt64(e, CultureInfo.InvariantCulture)); return;
            case double d: sb.Append(double.IsFinite(d) ? d.ToString("R", CultureInfo.InvariantCulture) : "null"); return;
            case float f: sb.Append(float.IsFinite(f) ? f.ToString("R", CultureInfo.InvariantCulture) : "null"); return;
            case IFormattable n when IsNumber(v): sb.Append(n.ToString(null, CultureInfo.InvariantCulture)); return;
            case DateTime dt: WriteString(sb, dt.ToString("o", CultureInfo.InvariantCulture), false); return;
            case IDictionary dict:
                {
                    sb.Append('{'); bool first = true;
                    foreach (DictionaryEntry kv in dict)
                    {
                        if (!first) sb.Append(','); first = false;
                        WriteString(sb, kv.Key.ToString(), false); sb.Append(':');
                        WriteValue(sb, kv.Value, depth + 1);
                    }
                    sb.Append('}'); return;
                }
            case IEnumerable list:
                {
                    sb.Append('['); bool first = true;
                    foreach (var x in list) { if (!first) sb.Append(','); first = false; WriteValue(sb, x, depth + 1); }
                    sb.Append(']'); return;
                }
            default:
                {
                    if (v is PSCustomObject || (v != null && PSObject.AsPSObject(v).Properties.Any()))
                    {
                        var props = PSObject.AsPSObject(v).Properties;
                        sb.Append('{'); bool first = true;
                        foreach (var p in props)
                        {
                            if (!first) sb.Append(','); first = false;
                            WriteString(sb, p.Name, false); sb.Append(':');
                            object pv; try { pv = p.Value; } catch { pv = null; }
                            WriteValue(sb, pv, depth + 1);
                        }
                        sb.Append('}'); return;
                    }
                    WriteString(sb, v.ToString(), false); return;
                }
        }
    }

    internal static bool IsNumber(object v) => v is int or long or short or sbyte or byte or ushort or uint or ulong or decimal or double or float or System.Numerics.BigInteger;

    /** html: escape < > & ' as \u003c ... (what 5.1's JavaScriptSerializer does). */
    internal static void WriteString(StringBuilder sb, string s, bool html)
    {
        sb.Append('"');
        foreach (var c in s)
        {
            switch (c)
            {
                case '"': sb.Append("\\\""); break;
                case '\\': sb.Append("\\\\"); break;
                case '\n': sb.Append("\\n"); break;
                case '\r': sb.Append("\\r"); break;
                case '\t': sb.Append("\\t"); break;
                case '\b': sb.Append("\\b"); break;
                case '\f': sb.Append("\\f"); break;
                default:
                    if (c < 0x20 || (html && (c == '<' || c == '>' || c == '&' || c == '\'')))
                        sb.Append("\\u").Append(((int)c).ToString("x4"));
                    else sb.Append(c);
                    break;
            }
        }
        sb.Append('"');
    }

    // --- the model as PowerShell values --------------------------------------------------------
    public static object ToPowerShell(object v) => v switch
    {
        IDictionary d => ToTable(d),
        List<object> l => l.Select(ToPowerShell).ToArray(),
        _ => v,
    };
    static OrderedDictionary ToTable(IDictionary d)
    {
        var t = new OrderedDictionary(StringComparer.OrdinalIgnoreCase);
        foreach (DictionaryEntry kv in d) t[kv.Key] = ToPowerShell(kv.Value);
        return t;
    }
    public static object FromPowerShell(object v) => v is PSObject p ? FromPowerShell(p.BaseObject) : v;
}
