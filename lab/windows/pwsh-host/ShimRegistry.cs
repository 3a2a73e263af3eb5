// [Microsoft.Win32.RegistryKey] for our programs: OpenBaseKey(hive, view) and the key's members our
// programs use, answered by the node's registry (lab/windows/registry-store.ts). Values cross as
// JSON: DWord/QWord as numbers (the raw signed value .NET returns), MultiString as string[], Binary
// as base64, so the programs' own conversions (BitConverter, ToString('x2')) really run.
using System.Collections;
using Microsoft.Win32;

namespace PlayPwshHost;

public sealed class PlayRegistryKey : IDisposable
{
    readonly string _hive;
    readonly string _path;

    PlayRegistryKey(string hive, string path) { _hive = hive; _path = path; }

    public string Name => _path == "" ? _hive : _hive + "\\" + _path;

    static readonly Dictionary<RegistryHive, string> s_hives = new()
    {
        [RegistryHive.LocalMachine] = "HKEY_LOCAL_MACHINE",
        [RegistryHive.CurrentUser] = "HKEY_CURRENT_USER",
        [RegistryHive.ClassesRoot] = "HKEY_CLASSES_ROOT",
        [RegistryHive.Users] = "HKEY_USERS",
    };

    public static PlayRegistryKey OpenBaseKey(RegistryHive hive, RegistryView view)
    {
        if (!s_hives.TryGetValue(hive, out var name)) throw new ArgumentException($"the simulated node has no hive {hive}");
        // Our programs ask for the 64-bit view; the simulated node has only that one.
        if (view != RegistryView.Registry64 && view != RegistryView.Default) throw new ArgumentException($"the simulated node has only the 64-bit registry view, not {view}");
        return new PlayRegistryKey(name, "");
    }

    string Child(string sub) => (_path == "" ? sub : _path + "\\" + sub).Trim('\\');
    IDictionary Where(string sub) => Callback.Args("hive", _hive, "path", sub);

    public PlayRegistryKey OpenSubKey(string name) => OpenSubKey(name, false);
    public PlayRegistryKey OpenSubKey(string name, bool writable)
    {
        var sub = Child(name);
        return (bool)Callback.Invoke("Registry.KeyExists", Where(sub)) ? new PlayRegistryKey(_hive, sub) : null;
    }

    public PlayRegistryKey CreateSubKey(string name)
    {
        var sub = Child(name);
        Callback.Invoke("Registry.CreateKey", Where(sub));
        return new PlayRegistryKey(_hive, sub);
    }

    public string[] GetValueNames() =>
        ((IEnumerable)Callback.Invoke("Registry.ValueNames", Where(_path))).Cast<object>().Select(x => (string)x).ToArray();

    public string[] GetSubKeyNames() =>
        ((IEnumerable)Callback.Invoke("Registry.SubKeyNames", Where(_path))).Cast<object>().Select(x => (string)x).ToArray();

    IDictionary Value(string name)
    {
        var args = Where(_path);
        args["name"] = name ?? "";
        return Callback.Invoke("Registry.GetValue", args) as IDictionary;
    }

    public RegistryValueKind GetValueKind(string name)
    {
        var v = Value(name) ?? throw new IOException("The specified registry key does not exist.");
        return Enum.Parse<RegistryValueKind>((string)v["type"]);
    }

    public object GetValue(string name) => GetValue(name, null, RegistryValueOptions.None);
    public object GetValue(string name, object defaultValue) => GetValue(name, defaultValue, RegistryValueOptions.None);
    public object GetValue(string name, object defaultValue, RegistryValueOptions options)
    {
        var v = Value(name);
        if (v == null) return defaultValue;
        var data = v["data"];
        switch ((string)v["type"])
        {
            case "DWord": return Convert.ToInt32(data);
            case "QWord": return Convert.ToInt64(data);
            case "MultiString": return ((IEnumerable)data).Cast<object>().Select(x => (string)x).ToArray();
            case "Binary": return Convert.FromBase64String((string)data);
            case "ExpandString":
                if ((options & RegistryValueOptions.DoNotExpandEnvironmentNames) != 0) return (string)data;
                return ((string)data).Replace("%SystemRoot%", @"C:\Windows", StringComparison.OrdinalIgnoreCase);
            default: return (string)data;
        }
    }

    public void SetValue(string name, object value) => SetValue(name, value, value is int ? RegistryValueKind.DWord : RegistryValueKind.String);
    public void SetValue(string name, object value, RegistryValueKind kind)
    {
        object data = kind switch
        {
            // .NET takes an Int32 for a DWord and an Int64 for a QWord (the bits are what count).
            RegistryValueKind.DWord => (long)Convert.ToInt32(value),
            RegistryValueKind.QWord => Convert.ToInt64(value),
            RegistryValueKind.MultiString => ((IEnumerable)value).Cast<object>().Select(x => x?.ToString()).ToList(),
            RegistryValueKind.Binary => Convert.ToBase64String((byte[])value),
            RegistryValueKind.String or RegistryValueKind.ExpandString => value?.ToString() ?? "",
            _ => throw new ArgumentException($"the simulated registry does not store {kind} values"),
        };
        var args = Where(_path);
        args["name"] = name ?? "";
        args["type"] = kind.ToString();
        args["data"] = data;
        Callback.Invoke("Registry.SetValue", args);
    }

    public void DeleteValue(string name)
    {
        var args = Where(_path);
        args["name"] = name ?? "";
        Callback.Invoke("Registry.DeleteValue", args);
    }

    public void Close() { }
    public void Dispose() { }
    public override string ToString() => Name;
}
