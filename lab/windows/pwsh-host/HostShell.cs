// The minimal PSHost: its only job is to learn the code of `exit N` (the engine calls SetShouldExit
// when a top-level script exits), which a runspace without a host throws away.
using System.Globalization;
using System.Management.Automation.Host;

namespace PlayPwshHost;

public sealed class HostShell : PSHost
{
    public override string Name => "PlayPwshHost";
    public override Version Version => new(1, 0);
    public override Guid InstanceId { get; } = Guid.NewGuid();
    public override PSHostUserInterface UI => null;
    // The invariant culture: the host is built with InvariantGlobalization (no ICU needed), where
    // en-US cannot be created. Our programs format dates and numbers with explicit formats anyway.
    public override CultureInfo CurrentCulture => CultureInfo.InvariantCulture;
    public override CultureInfo CurrentUICulture => CultureInfo.InvariantCulture;
    public override void SetShouldExit(int exitCode) { Shims.ExitCode = exitCode; }
    public override void EnterNestedPrompt() => throw new NotSupportedException("no nested prompt in PlayPwshHost");
    public override void ExitNestedPrompt() => throw new NotSupportedException("no nested prompt in PlayPwshHost");
    public override void NotifyBeginApplication() { }
    public override void NotifyEndApplication() { }
}
