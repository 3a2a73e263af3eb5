// What powershell.exe prints for a program's output and errors: PowerShell's own formatting (Out-String,
// and 5.1's default error view, NormalView: "message", "At line:N char:M", the source line and its
// underline, CategoryInfo and FullyQualifiedErrorId), with Windows line ends. Lines are not wrapped at
// a console width: over SSH there is no console.
using System.Management.Automation;
using System.Management.Automation.Runspaces;

namespace PlayPwshHost;

public static class Output
{
    const int Width = 4096;

    static string Crlf(string text) => text.Replace("\r\n", "\n").Replace("\n", "\r\n");

    /** Objects a program left in the pipeline, as the console shows them. */
    public static string Text(Runspace rs, List<PSObject> objects)
    {
        if (objects.Count == 0) return "";
        using var ps = PowerShell.Create();
        ps.Runspace = rs;
        ps.AddCommand("Out-String").AddParameter("Stream").AddParameter("Width", Width);
        return string.Concat(ps.Invoke<string>(objects).Select(line => Crlf(line) + "\r\n"));
    }

    /** An error record as 5.1 writes it on the error stream. */
    public static string ErrorView(Runspace rs, ErrorRecord record)
    {
        using var ps = PowerShell.Create();
        ps.Runspace = rs;
        ps.AddCommand("Out-String").AddParameter("Width", Width);
        var text = Crlf((ps.Invoke<string>(new object[] { record }).FirstOrDefault() ?? record.ToString()).Trim('\r', '\n'));
        // 7's NormalView is 5.1's view but for the indented category lines, the ellipsis of a cut
        // source line and the blank line that ends a record.
        var lines = text.Split("\r\n").Select(l => l.StartsWith("+ CategoryInfo", StringComparison.Ordinal) || l.StartsWith("+ FullyQualifiedErrorId", StringComparison.Ordinal) ? "    " + l : l.Replace("\u2026", "..."));
        return string.Join("\r\n", lines) + "\r\n \r\n";
    }
}
