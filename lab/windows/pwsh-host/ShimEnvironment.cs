// [System.Environment] as a Windows node answers it: NewLine is CRLF (this host runs on Linux, where
// .NET says LF, and our programs join native output with it). Environment variables are the
// session's, as set up in Program.cs.
namespace PlayPwshHost;

public static class PlayEnvironment
{
    public static string NewLine => "\r\n";
    public static string MachineName => Environment.GetEnvironmentVariable("COMPUTERNAME") ?? "NODE";
    public static bool Is64BitOperatingSystem => true;
    public static bool Is64BitProcess => true;
    public static int ProcessorCount => Environment.ProcessorCount;
    public static string GetEnvironmentVariable(string name) => Environment.GetEnvironmentVariable(name);
    public static string GetEnvironmentVariable(string name, EnvironmentVariableTarget target) => Environment.GetEnvironmentVariable(name);
}
