// Builds PlayPwshHost (lab/windows/pwsh-host): the real PowerShell engine the simulated Windows node
// runs our programs under. Skipped when the build is newer than every source; `dotnet build`
// restores System.Management.Automation from NuGet the first time. With --optional (`prepare`, which
// also runs when play is installed from git into a user's repository), a missing .NET SDK is a note,
// not a failure: only the lab's simulated Windows nodes need this host.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const project = join(root, 'lab/windows/pwsh-host');
const dll = join(project, 'out/PlayPwshHost.dll');

const sources = readdirSync(project).filter((f) => f.endsWith('.cs') || f.endsWith('.csproj'));
const newest = Math.max(...sources.map((f) => statSync(join(project, f)).mtimeMs));
if (existsSync(dll) && statSync(dll).mtimeMs >= newest) process.exit(0);

const probe = spawnSync('dotnet', ['--version'], { encoding: 'utf8' });
if ((probe.error || probe.status !== 0) && process.argv.includes('--optional')) {
  process.stderr.write(
    'build: no .NET SDK (`dotnet`): the simulated Windows nodes of the lab are not built (`npm run build` builds them)\n',
  );
  process.exit(0);
}
if (probe.error || probe.status !== 0) {
  process.stderr.write(
    'build: the simulated Windows node needs the .NET SDK (10 or later) to build its PowerShell host: install it ' +
      '(https://dotnet.microsoft.com/download, or `apt-get install dotnet-sdk-10.0`) and run `npm run build` again\n',
  );
  process.exit(1);
}
const started = Date.now();
const build = spawnSync('dotnet', ['build', '-c', 'Release', '-o', 'out', '--nologo', '-v', 'q', '-clp:ErrorsOnly'], {
  cwd: project,
  stdio: 'inherit',
  env: { ...process.env, DOTNET_CLI_TELEMETRY_OPTOUT: '1', DOTNET_NOLOGO: '1' },
});
if (build.status !== 0) {
  process.stderr.write(`build: dotnet build of ${project} failed (exit ${build.status})\n`);
  process.exit(1);
}
process.stdout.write(`build: PlayPwshHost built in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
