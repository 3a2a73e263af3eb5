// [System.IO.File] for Windows paths (C:\...): the bytes live in the node's model, not on this
// machine's disk (the accelerator in Shims.cs makes [System.IO.File] and [IO.File] this class). The
// members our programs call, and the text ones an operator types (ReadAllText, WriteAllText...) with
// .NET's encodings: reading detects a BOM and is UTF-8 otherwise; writing is UTF-8 without a BOM
// unless an encoding is given. A member missing here is "Method invocation failed" in a program.
using System.Collections;
using System.Text;

namespace PlayPwshHost;

public static class PlayFile
{
    public static byte[] ReadAllBytes(string path) =>
        Convert.FromBase64String((string)Callback.Invoke("File.Read", Callback.Args("path", path)) ?? "");

    public static void WriteAllBytes(string path, byte[] bytes) =>
        Callback.Invoke("File.Write", Callback.Args("path", path, "contentBase64", Convert.ToBase64String(bytes ?? Array.Empty<byte>())));

    public static string ReadAllText(string path) => ReadAllText(path, Encoding.UTF8);
    public static string ReadAllText(string path, Encoding encoding)
    {
        using var reader = new StreamReader(new MemoryStream(ReadAllBytes(path)), encoding, detectEncodingFromByteOrderMarks: true);
        return reader.ReadToEnd();
    }

    public static string[] ReadAllLines(string path) => ReadAllLines(path, Encoding.UTF8);
    public static string[] ReadAllLines(string path, Encoding encoding)
    {
        using var reader = new StringReader(ReadAllText(path, encoding));
        var lines = new List<string>();
        for (string l; (l = reader.ReadLine()) != null;) lines.Add(l);
        return lines.ToArray();
    }

    public static void WriteAllText(string path, string contents) => WriteAllBytes(path, new UTF8Encoding(false).GetBytes(contents ?? ""));
    public static void WriteAllText(string path, string contents, Encoding encoding) =>
        WriteAllBytes(path, encoding.GetPreamble().Concat(encoding.GetBytes(contents ?? "")).ToArray());

    public static void WriteAllLines(string path, IEnumerable<string> lines) => WriteAllText(path, string.Concat(lines.Select(l => l + "\r\n")));
    public static void WriteAllLines(string path, IEnumerable<string> lines, Encoding encoding) =>
        WriteAllText(path, string.Concat(lines.Select(l => l + "\r\n")), encoding);

    public static void AppendAllText(string path, string contents) => AppendAllText(path, contents, new UTF8Encoding(false));
    public static void AppendAllText(string path, string contents, Encoding encoding)
    {
        var old = Exists(path) ? ReadAllBytes(path) : Array.Empty<byte>();
        var preamble = old.Length == 0 ? encoding.GetPreamble() : Array.Empty<byte>();
        WriteAllBytes(path, old.Concat(preamble).Concat(encoding.GetBytes(contents ?? "")).ToArray());
    }

    public static bool Exists(string path) => (bool)Callback.Invoke("File.Exists", Callback.Args("path", path));

    /** File.Move(src, dst): fails when dst exists (as .NET does without overwrite). */
    public static void Move(string source, string destination) =>
        Callback.Invoke("File.Move", Callback.Args("source", source, "destination", destination));

    /** File.Replace(src, dst, backup): dst must exist; backup null ([NullString]::Value) keeps none. */
    public static void Replace(string source, string destination, string backup) =>
        Callback.Invoke("File.Replace", Callback.Args("source", source, "destination", destination, "backup", backup));

    public static void Delete(string path) => Callback.Invoke("File.Delete", Callback.Args("path", path));

    /** File.Open(path, FileMode.Create | FileMode.Append): a stream to write the file's bytes with. */
    public static PlayFileStream Open(string path, System.IO.FileMode mode)
    {
        Callback.Invoke("File.Open", Callback.Args("path", path, "mode", mode.ToString()));
        return new PlayFileStream(path);
    }
}

/** The FileStream File.Open returns, for writing: each Write appends to the model's file. */
public sealed class PlayFileStream : IDisposable
{
    private readonly string path;

    internal PlayFileStream(string path) => this.path = path;

    public void Write(byte[] array, int offset, int count) =>
        Callback.Invoke("File.Append", Callback.Args("path", path, "contentBase64", Convert.ToBase64String(array, offset, count)));

    public void Close() { }

    public void Dispose() { }
}
