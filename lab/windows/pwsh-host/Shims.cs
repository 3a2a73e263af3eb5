// The .NET surface of Windows that our programs call directly (not through a cmdlet), redirected
// to the simulated node: PowerShell type accelerators registered under the full type names make
// `[System.Diagnostics.Process]::Start($psi)` resolve to PlayProcess, whose Start hands the program
// and its argv (split from psi.Arguments by the Microsoft C runtime's rules, so our quoting is tested
// for real) to the simulated node (Callback.cs, op Native.Run), and returns its exit code and output
// as the real Process would. The same for [System.IO.File] (ShimFile.cs), [Microsoft.Win32.RegistryKey]
// (ShimRegistry.cs) and PlayHns.NativeMethods (ShimHns.cs).
using System.Management.Automation;
using System.Text;


namespace PlayPwshHost;

public static class Shims
{
    public static int? ExitCode;
    public static void ResetForRequest() { ExitCode = null; }

    public static readonly List<string> Installed = new();

    public static void Install()
    {
        var accelerators = typeof(PSObject).Assembly.GetType("System.Management.Automation.TypeAccelerators")
            ?? throw new InvalidOperationException("TypeAccelerators not found");
        var add = accelerators.GetMethod("Add", new[] { typeof(string), typeof(Type) })!;
        void Map(string name, Type t) { add.Invoke(null, new object[] { name, t }); Installed.Add(name); }
        Map("System.Diagnostics.Process", typeof(PlayProcess));
        Map("System.Console", typeof(PlayConsole));
        Map("Console", typeof(PlayConsole));
        Map("Diagnostics.Process", typeof(PlayProcess));
        Map("System.IO.File", typeof(PlayFile));
        Map("IO.File", typeof(PlayFile));
        Map("Microsoft.Win32.RegistryKey", typeof(PlayRegistryKey));
        Map("PlayHns.NativeMethods", typeof(PlayHns.NativeMethods));
        Map("System.Environment", typeof(PlayEnvironment));
        Map("Environment", typeof(PlayEnvironment));
    }

    /** Runs a native program on the simulated node (lab/windows/native/): its exit code and output bytes. */
    public static (int code, byte[] stdout, byte[] stderr) RunNative(string fileName, string[] argv, string stdin)
    {
        var r = Callback.Invoke("Native.Run", Callback.Args("file", fileName, "argv", argv.ToList<object>(), "stdin", stdin))
            as System.Collections.IDictionary ?? throw new InvalidOperationException($"the node answered nothing for {fileName}");
        return (Convert.ToInt32(r["code"]), Convert.FromBase64String((string)r["stdoutBase64"] ?? ""), Convert.FromBase64String((string)r["stderrBase64"] ?? ""));
    }

    /** How a program built with the Microsoft C runtime splits its command line (CommandLineToArgvW, after the program name). */
    public static string[] SplitWindowsCommandLine(string line)
    {
        var args = new List<string>();
        int i = 0;
        line ??= "";
        while (i < line.Length)
        {
            while (i < line.Length && (line[i] == ' ' || line[i] == '\t')) i++;
            if (i >= line.Length) break;
            var arg = new StringBuilder();
            bool quoted = false;
            for (; i < line.Length; i++)
            {
                char ch = line[i];
                if (!quoted && (ch == ' ' || ch == '\t')) break;
                if (ch == '\\')
                {
                    int n = 0;
                    while (i < line.Length && line[i] == '\\') { n++; i++; }
                    if (i < line.Length && line[i] == '"')
                    {
                        arg.Append('\\', n / 2);
                        if (n % 2 == 1) arg.Append('"');
                        else if (quoted && i + 1 < line.Length && line[i + 1] == '"') { arg.Append('"'); i++; }
                        else quoted = !quoted;
                    }
                    else { arg.Append('\\', n); i--; }
                    continue;
                }
                if (ch == '"')
                {
                    if (quoted && i + 1 < line.Length && line[i + 1] == '"') { arg.Append('"'); i++; } else quoted = !quoted;
                    continue;
                }
                arg.Append(ch);
            }
            args.Add(arg.ToString());
        }
        return args.ToArray();
    }
}

/** What our programs use of System.Diagnostics.Process, answered by the simulated node. */
public sealed class PlayProcess
{
    public int ExitCode { get; private set; }
    public int Id { get; } = Random.Shared.Next(1000, 60000);
    public bool HasExited => true;
    public StreamReader StandardOutput { get; private set; }
    public StreamReader StandardError { get; private set; }
    public StreamWriter StandardInput { get; } = new StreamWriter(Stream.Null);
    public string FileName { get; private set; }
    public string[] Argv { get; private set; }

    public static PlayProcess Start(System.Diagnostics.ProcessStartInfo psi)
    {
        var argv = psi.ArgumentList.Count > 0 ? psi.ArgumentList.ToArray() : Shims.SplitWindowsCommandLine(psi.Arguments);
        var (code, stdout, stderr) = Shims.RunNative(psi.FileName, argv, null);
        return new PlayProcess
        {
            FileName = psi.FileName, Argv = argv, ExitCode = code,
            StandardOutput = new StreamReader(new MemoryStream(stdout), Encoding.UTF8),
            StandardError = new StreamReader(new MemoryStream(stderr), Encoding.UTF8),
        };
    }

    public static PlayProcess Start(string fileName, string arguments) =>
        Start(new System.Diagnostics.ProcessStartInfo(fileName, arguments ?? ""));

    public static PlayProcess Start(string fileName) => Start(fileName, "");

    public void WaitForExit() { }
    public bool WaitForExit(int milliseconds) => true;
    public void Kill() { }
    public void Dispose() { }
}

/**
 * [Console] for a program run by the host: In/Out/Error are the request's (Console.SetIn/SetOut),
 * and setting InputEncoding/OutputEncoding is recorded only. The real System.Console would drop the
 * request's reader when InputEncoding is set (as the bootstrap does) and read the protocol's stdin.
 */
public static class PlayConsole
{
    public static Encoding InputEncoding { get; set; } = new UTF8Encoding(false);
    public static Encoding OutputEncoding { get; set; } = new UTF8Encoding(false);
    public static TextReader In => Console.In;
    public static TextWriter Out => Console.Out;
    public static TextWriter Error => Console.Error;
    public static bool IsInputRedirected => true;
    public static bool IsOutputRedirected => true;
    public static bool IsErrorRedirected => true;
    public static string ReadLine() => Console.In.ReadLine();
    public static void Write(object value) => Console.Out.Write(value);
    public static void WriteLine(object value) => Console.Out.WriteLine(value);
    public static void WriteLine() => Console.Out.WriteLine();
    public static Stream OpenStandardInput() => throw new NotSupportedException("[Console]::OpenStandardInput() on the simulated node: use [Console]::In");
    public static Stream OpenStandardOutput() => throw new NotSupportedException("[Console]::OpenStandardOutput() on the simulated node: use [Console]::Out");
}
