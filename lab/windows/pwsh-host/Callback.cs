// The way back to the simulated node's model (lab/windows/, TypeScript): while a program runs, the
// mock modules (`Invoke-PlayWindows OP @{...}`) and the .NET shims (Process, File, RegistryKey, HNS)
// ask the node to read or change its state. The host writes {"callback":{"op","args"}} on the
// protocol's stdout and reads the node's one-line answer, {"result": ...} or {"error": "text"}, on
// its stdin. So the Windows rules live in one place, the model; PowerShell code runs for real above it.
using System.Collections;
using System.Collections.Specialized;
using System.Management.Automation;

namespace PlayPwshHost;

/** A Windows error the node answered with: its text is what the real API or cmdlet says. */
public sealed class SimulatedWindowsException : Exception
{
    public SimulatedWindowsException(string message) : base(message) { }
}

public static class Callback
{
    public static TextReader In;
    public static TextWriter Out;
    /** Callbacks made in the current request, for the reply (how often the model was asked). */
    public static int Count;

    public static object Invoke(string op, IDictionary args)
    {
        if (In == null || Out == null) throw new InvalidOperationException("no simulated node to call back (the host is not serving)");
        Count++;
        var call = new OrderedDictionary { ["op"] = op, ["args"] = args ?? new OrderedDictionary() };
        Out.WriteLine(Json.Write(new OrderedDictionary { ["callback"] = call }, false));
        var line = In.ReadLine() ?? throw new EndOfStreamException("the simulated node closed the protocol during a callback");
        if (Json.Parse(line) is not IDictionary answer) throw new FormatException("a callback answer is a JSON object");
        if (answer.Contains("error")) throw new SimulatedWindowsException(answer["error"] as string ?? "error");
        return answer["result"];
    }

    /** Arguments for Invoke: name, value pairs (values are plain .NET: strings, numbers, bools, arrays, dictionaries). */
    public static IDictionary Args(params object[] pairs)
    {
        var d = new OrderedDictionary();
        for (int i = 0; i + 1 < pairs.Length; i += 2) d[(string)pairs[i]] = pairs[i + 1];
        return d;
    }
}

/**
 * Invoke-PlayWindows OP [ARGS]: one call to the node's model, for the mock modules. The answer is
 * written to the pipeline (an array enumerated, null as nothing); dictionaries are case-insensitive
 * ordered hashtables. A node error is a terminating error with the node's text.
 */
[Cmdlet(VerbsLifecycle.Invoke, "PlayWindows")]
public sealed class InvokePlayWindowsCommand : PSCmdlet
{
    [Parameter(Mandatory = true, Position = 0)]
    public string Op { get; set; }

    [Parameter(Position = 1)]
    public IDictionary Arguments { get; set; }

    protected override void EndProcessing()
    {
        object result;
        try
        {
            result = Callback.Invoke(Op, Plain(Arguments) as IDictionary);
        }
        catch (SimulatedWindowsException e)
        {
            ThrowTerminatingError(new ErrorRecord(e, "SimulatedWindows," + Op, ErrorCategory.NotSpecified, Op));
            return;
        }
        // Arrays are enumerated, as cmdlets do: a mock writes @(Invoke-PlayWindows ...) for a list.
        if (result != null) WriteObject(Json.ToPowerShell(result), true);
    }

    /** PowerShell values to what Json.Write takes: PSObjects unwrapped, enums and other objects as strings. */
    public static object Plain(object v)
    {
        v = v is PSObject p ? p.BaseObject : v;
        switch (v)
        {
            case null: return null;
            case string or bool or int or long or double or decimal or uint or ulong or short or ushort or byte or sbyte or float: return v;
            case IDictionary d:
            {
                var o = new OrderedDictionary();
                foreach (DictionaryEntry kv in d) o[kv.Key.ToString()] = Plain(kv.Value);
                return o;
            }
            case byte[] bytes: return Convert.ToBase64String(bytes);
            case IEnumerable e: return e.Cast<object>().Select(Plain).ToList();
            default: return v.ToString();
        }
    }
}
