// PlayPwshHost: one persistent PowerShell runspace (the full PowerShell 7.6: Microsoft.PowerShell.SDK)
// serving requests over stdin/stdout, one JSON object per line each way. It stands in for
// powershell.exe on the simulated Windows node: PowerShell's own commands, an allow-list of them
// (Session.cs), with the 5.1 behaviours play depends on as shims (Json51.cs, mock/Compat51.psm1);
// the Windows surface (files, services, registry, native programs...) comes from mock modules
// (mock/*.psm1) and shims (Shim*.cs) that call back to the simulated node's model (Callback.cs)
// while the program runs. See README.md.
using System.Collections;
using System.Collections.Specialized;
using System.Management.Automation;
using System.Management.Automation.Runspaces;
using System.Text;

namespace PlayPwshHost;

public static class Program
{
    public static int Main(string[] args)
    {
        var modules = new List<string>();
        string checkFile = null;
        bool checkStdin = false;
        for (int i = 0; i < args.Length; i++)
        {
            switch (args[i])
            {
                case "--module": modules.Add(args[++i]); break;
                case "--virtual-clock": Clock.Virtual = true; break;
                case "--check": checkFile = args[++i]; break;
                case "--check-stdin": checkStdin = true; break;
                default: Console.Error.WriteLine($"unknown argument {args[i]}"); return 2;
            }
        }
        if (checkFile != null || checkStdin)
        {
            // One-shot: the PowerShell 5.1 check of one text (a file, or stdin), as JSON.
            var text = checkFile != null ? File.ReadAllText(checkFile) : Console.In.ReadToEnd();
            Console.Out.Write(Json.Write(Compat51.Check(text), pretty: false));
            Console.Out.WriteLine();
            return 0;
        }
        Server server;
        try { server = new Server(modules); }
        catch (InvalidOperationException e) { Console.Error.WriteLine($"PlayPwshHost: {e.Message}"); return 1; }
        return server.Serve();
    }
}

/** Get-Date and Start-Sleep read and move this clock: real time, or a virtual one that a sleep advances at once. */
public static class Clock
{
    public static bool Virtual;
    static DateTime s_virtualNow = new DateTime(2020, 5, 8, 10, 0, 0, DateTimeKind.Local);
    public static DateTime Now => Virtual ? s_virtualNow : DateTime.Now;
    public static void Sleep(TimeSpan span)
    {
        if (span <= TimeSpan.Zero) return;
        if (Virtual) s_virtualNow += span; else Thread.Sleep(span);
    }
    public static void Set(DateTime now) { s_virtualNow = now; }
}

public sealed class Server
{
    readonly Runspace _rs;
    readonly TextReader _protocolIn;
    readonly TextWriter _protocolOut;

    public Server(List<string> modules)
    {
        // The protocol keeps the process's real stdin/stdout; Console.In/Out/Error are swapped for
        // each request, so a program's [Console]::In.ReadToEnd() reads the request's stdin.
        var utf8 = new UTF8Encoding(false);
        _protocolIn = new StreamReader(Console.OpenStandardInput(), utf8);
        _protocolOut = new StreamWriter(Console.OpenStandardOutput(), utf8) { AutoFlush = true, NewLine = "\n" };
        Callback.In = _protocolIn;
        Callback.Out = _protocolOut;
        Shims.Install();
        var iss = Session.Create();
        // What a Windows Server 2019 session has in its environment (values, not the local machine's).
        iss.EnvironmentVariables.Add(new SessionStateVariableEntry("SystemRoot", @"C:\Windows", ""));
        iss.EnvironmentVariables.Add(new SessionStateVariableEntry("windir", @"C:\Windows", ""));
        iss.EnvironmentVariables.Add(new SessionStateVariableEntry("ProgramFiles", @"C:\Program Files", ""));
        iss.EnvironmentVariables.Add(new SessionStateVariableEntry("ProgramData", @"C:\ProgramData", ""));
        iss.EnvironmentVariables.Add(new SessionStateVariableEntry("TEMP", @"C:\Users\Administrator\AppData\Local\Temp", ""));
        iss.EnvironmentVariables.Add(new SessionStateVariableEntry("COMPUTERNAME", "NODE", ""));
        // 5.1 semantics we can choose: no strict mode, and errors shown as 5.1 does by default.
        _rs = RunspaceFactory.CreateRunspace(new HostShell(), iss);
        _rs.Open();
        using (var ps = PowerShell.Create())
        {
            ps.Runspace = _rs;
            // No module is found by name (the built-in ones would act on this machine), and errors are
            // shown in 5.1's default view.
            ps.AddScript("$global:ProgressPreference = 'SilentlyContinue'; $env:PSModulePath = ''; $global:ErrorView = 'NormalView'; $PSVersionTable.PSVersion.ToString()");
            _psVersion = ps.Invoke()[0].ToString();
        }
        // The mock modules, loaded here (not by the session state) so that a broken one stops the
        // host with its parse error instead of leaving its cmdlets silently missing.
        foreach (var m in modules)
        {
            using var ps = PowerShell.Create();
            ps.Runspace = _rs;
            ps.AddCommand("Import-Module").AddParameter("Name", Path.GetFullPath(m)).AddParameter("Global").AddParameter("ErrorAction", "Stop");
            try { ps.Invoke(); }
            catch (Exception e) { throw new InvalidOperationException($"mock module {m} did not load: {e.Message}", e); }
            if (ps.HadErrors) throw new InvalidOperationException($"mock module {m} did not load: {ps.Streams.Error[0]}");
        }
        // What the global scope holds before any program: Reset() returns to it after each run.
        _baseVariables = new HashSet<string>(Names("variable:"), StringComparer.OrdinalIgnoreCase);
        _baseFunctions = new HashSet<string>(Names("function:"), StringComparer.OrdinalIgnoreCase);
    }

    readonly string _psVersion;
    HashSet<string> _baseVariables;
    HashSet<string> _baseFunctions;

    IEnumerable<string> Names(string drive) =>
        _rs.SessionStateProxy.InvokeProvider.ChildItem.Get(drive, false)
            .Select(o => o.Properties["Name"]?.Value as string).Where(n => n != null).ToList();

    /** Removes the variables and functions a program left in the global scope; resets the preferences it may have set. */
    void Reset()
    {
        var items = _rs.SessionStateProxy.InvokeProvider.Item;
        foreach (var name in Names("variable:").Where(n => !_baseVariables.Contains(n)))
        {
            // Automatic variables the engine made (PSCommandPath...) cannot be removed: they are its own.
            try { _rs.SessionStateProxy.PSVariable.Remove(name); }
            catch (SessionStateUnauthorizedAccessException) { }
        }
        foreach (var name in Names("function:").Where(n => !_baseFunctions.Contains(n)))
            items.Remove("function:\\" + name, false);
        _rs.SessionStateProxy.SetVariable("global:ErrorActionPreference", ActionPreference.Continue);
        _rs.SessionStateProxy.SetVariable("global:ProgressPreference", ActionPreference.SilentlyContinue);
        _rs.SessionStateProxy.SetVariable("global:VerbosePreference", ActionPreference.SilentlyContinue);
        _rs.SessionStateProxy.SetVariable("global:WarningPreference", ActionPreference.Continue);
        _rs.SessionStateProxy.SetVariable("global:DebugPreference", ActionPreference.SilentlyContinue);
    }

    public int Serve()
    {
        _protocolOut.WriteLine(Json.Write(new OrderedDictionary { ["ready"] = true, ["psVersion"] = _psVersion, ["pid"] = Environment.ProcessId }, false));
        string line;
        while ((line = _protocolIn.ReadLine()) != null)
        {
            if (line.Trim() == "") continue;
            IDictionary reply;
            try
            {
                var request = Json.Parse(line) as IDictionary ?? throw new FormatException("a request is a JSON object");
                reply = Handle(request);
            }
            catch (Exception e)
            {
                reply = new OrderedDictionary { ["hostError"] = e.GetType().Name + ": " + e.Message };
            }
            _protocolOut.WriteLine(Json.Write(reply, false));
        }
        _rs.Dispose();
        return 0;
    }

    IDictionary Handle(IDictionary request)
    {
        var reply = new OrderedDictionary();
        if (request.Contains("id")) reply["id"] = request["id"];
        if (request.Contains("check"))
        {
            reply["check"] = Compat51.Check((string)request["check"]);
            return reply;
        }
        string script = request["script"] as string;
        if (request["encodedCommand"] is string enc) script = Encoding.Unicode.GetString(Convert.FromBase64String(enc));
        if (script == null) throw new FormatException("a request needs script, encodedCommand or check");
        string stdin = request["stdin"] as string ?? "";
        // A virtual clock starts each program at the real time (or the one asked for), so Get-Date reads
        // true and a program's 60-second wait loops cost nothing.
        if (request["clock"] is string clock) Clock.Set(DateTime.Parse(clock, null, System.Globalization.DateTimeStyles.RoundtripKind));
        else if (Clock.Virtual) Clock.Set(DateTime.Now);
        var started = System.Diagnostics.Stopwatch.StartNew();
        Callback.Count = 0;
        var result = Run(script, stdin);
        foreach (DictionaryEntry kv in result) reply[kv.Key] = kv.Value;
        reply["callbacks"] = Callback.Count;
        reply["ms"] = Math.Round(started.Elapsed.TotalMilliseconds, 2);
        return reply;
    }

    /** Runs a script as `powershell.exe -NoProfile -NonInteractive -Command <script>` would with stdin. */
    IDictionary Run(string script, string stdin)
    {
        var stdout = new StringWriter { NewLine = "\r\n" };
        var stderr = new StringWriter { NewLine = "\r\n" };
        var streams = new List<(string stream, string text)>();
        var oldIn = Console.In; var oldOut = Console.Out; var oldErr = Console.Error;
        int exitCode = 0;
        try
        {
            Console.SetIn(new StringReader(stdin));
            Console.SetOut(stdout);
            Console.SetError(stderr);
            Shims.ResetForRequest();
            using var ps = PowerShell.Create();
            ps.Runspace = _rs;
            // powershell.exe -Command runs the script in the global scope: the bootstrap's
            // $ErrorActionPreference = 'Stop' is global, so the Windows cmdlets (here: mock module
            // functions, which see only their module and the global scope) honour it as compiled
            // cmdlets do. What the program adds to the global scope is removed afterwards (Reset), so
            // each run starts as a new powershell.exe; the node's model is the only state that survives.
            _rs.SessionStateProxy.SetVariable("global:LASTEXITCODE", 0);
            _rs.SessionStateProxy.SetVariable("global:ErrorActionPreference", ActionPreference.Continue);
            (_rs.SessionStateProxy.GetVariable("global:Error") as ArrayList)?.Clear();
            ps.AddScript(script, useLocalScope: false);
            // Collected as it comes, so what ran before a terminating error is still printed (as powershell.exe does).
            var output = new List<PSObject>();
            ErrorRecord terminating = null;
            try
            {
                ps.Invoke<PSObject>(null, output);
            }
            catch (RuntimeException e) when (FindExit(e) is int code)
            {
                exitCode = code;
            }
            catch (RuntimeException e)
            {
                // powershell.exe -Command: a terminating error is written to stderr, exit 1.
                terminating = e.ErrorRecord;
                exitCode = 1;
            }
            stdout.Write(Output.Text(_rs, output));
            foreach (var info in ps.Streams.Information.Where(i => i.Tags.Contains("PSHOST"))) stdout.Write(info.MessageData + "\r\n");
            foreach (var w in ps.Streams.Warning) streams.Add(("warning", w.Message + "\r\n"));
            foreach (var v in ps.Streams.Verbose) streams.Add(("verbose", v.Message + "\r\n"));
            foreach (var err in ps.Streams.Error) streams.Add(("Error", Output.ErrorView(_rs, err)));
            if (terminating != null) streams.Add(("Error", Output.ErrorView(_rs, terminating)));
            // `exit N` inside the script: the engine records it here when no host takes it.
            if (Shims.ExitCode is int shimExit) exitCode = shimExit;
        }
        finally
        {
            Reset();
            Console.Out.Flush();
            Console.SetIn(oldIn); Console.SetOut(oldOut); Console.SetError(oldErr);
        }
        // stderr: what the program wrote there itself, then PowerShell's error stream (and warnings,
        // verbose), which the node writes as CLIXML records (lab/windows/powershell/clixml.ts).
        return new OrderedDictionary
        {
            ["stdout"] = stdout.ToString(), ["stderr"] = stderr.ToString() + string.Concat(streams.Select(r => r.stream == "Error" ? r.text : r.stream.ToUpperInvariant() + ": " + r.text)),
            ["consoleStderr"] = stderr.ToString(), ["streams"] = streams.Select(r => (object)new List<object> { r.stream, r.text }).ToList(), ["exitCode"] = exitCode,
        };
    }

    static int? FindExit(Exception e)
    {
        for (var x = e; x != null; x = x.InnerException)
        {
            if (x.GetType().Name == "ExitException")
            {
                var arg = x.GetType().GetProperty("Argument")?.GetValue(x);
                return arg == null ? 0 : LanguagePrimitives.ConvertTo<int>(arg);
            }
        }
        return null;
    }
}
