// [System.IO.File] for our programs' Windows paths (C:\...): the bytes live in the node's model, not
// on this machine's disk. Only the members our programs call; the rest would be a bug to find here.
using System.Collections;

namespace PlayPwshHost;

public static class PlayFile
{
    public static byte[] ReadAllBytes(string path) =>
        Convert.FromBase64String((string)Callback.Invoke("File.Read", Callback.Args("path", path)) ?? "");

    public static void WriteAllBytes(string path, byte[] bytes) =>
        Callback.Invoke("File.Write", Callback.Args("path", path, "contentBase64", Convert.ToBase64String(bytes ?? Array.Empty<byte>())));

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
