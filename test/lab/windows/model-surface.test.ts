// The Windows surface beneath our functions on the simulated node (a test double under our real
// PowerShell): the item cmdlets' errors and types as Windows PowerShell 5.1 gives them, the
// registry keys derived from the model (pending reboot, network devices), and w32tm.exe.
import { createHash } from 'node:crypto';
import test from 'ava';
import type { SimulatedWindowsNode } from '../../../lab/windows/model.js';
import { sharedPowerShellHost } from '../../../lab/windows/powershell/host.js';
import { surfaceOf } from '../../../lab/windows/surface/index.js';
import { INVOKE_NATIVE } from '../../../tasks/windows/remote/ps-native.js';
import { model, run } from './helpers.js';

const sha = (s: string) => createHash('sha256').update(s).digest('hex');

/**
 * Runs a PowerShell script on the node with $ErrorActionPreference Stop, as our programs run; its
 * output lines. In a script block of its own, so the functions it defines go with it.
 */
async function ps(node: SimulatedWindowsNode, script: string): Promise<string[]> {
  const host = await sharedPowerShellHost();
  const out = await host.run({ script: `& {\n$ErrorActionPreference = 'Stop'\n${script}\n}` }, surfaceOf(node));
  if (out.exitCode !== 0) throw new Error(`exit ${out.exitCode}: ${out.stderr}`);
  return out.stdout.split(/\r?\n/).filter((l) => l !== '');
}

test('derived registry keys: RebootPending exists while a change waits for a restart, and cannot be deleted', async (t) => {
  const node = model(t);
  const key = 'HKLM:\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\Component Based Servicing\\RebootPending';
  t.deepEqual(await run(node, 'Test-PlayPath', { path: key }), { exists: false, isDirectory: false });
  node.state.pending.push({ kind: 'feature', name: 'Containers' });
  t.deepEqual(await run(node, 'Test-PlayPath', { path: key }), { exists: true, isDirectory: true });
  t.deepEqual(
    await ps(node, `try { Remove-Item -LiteralPath '${key}' -Recurse -Force } catch { $_.Exception.Message }`),
    ['Requested registry access is not allowed.'],
  );
  t.regex(
    (await t.throwsAsync(run(node, 'Set-PlayRegistryValue', { path: key, name: 'x', type: 'String', data: 'y' })))
      .message,
    /"Requested registry access is not allowed\."$/,
  );
  node.state.pending = [];
  t.deepEqual(await run(node, 'Test-PlayPath', { path: key }), { exists: false, isDirectory: false });
});

test("derived registry keys: an Enum key per network device; removing a ghost's key removes the device", async (t) => {
  const ghost = {
    instanceId: 'ROOT\\VMS_MP\\0001',
    friendlyName: 'Hyper-V Virtual Ethernet Adapter',
    status: 'Error' as const,
  };
  const node = model(t, (s) => s.pnpNetDevices.push(ghost));
  const key = `HKLM:\\SYSTEM\\CurrentControlSet\\Enum\\${ghost.instanceId}`;
  t.deepEqual(await run(node, 'Test-PlayPath', { path: key }), { exists: true, isDirectory: true });
  t.deepEqual(await run(node, 'Get-PlayRegistryValue', { path: key, name: 'FriendlyName' }), {
    type: 'String',
    data: ghost.friendlyName,
  });
  t.deepEqual(
    await ps(node, "(Get-Item -LiteralPath 'HKLM:\\SYSTEM\\CurrentControlSet\\Enum').GetSubKeyNames() -join ','"),
    ['ROOT,VMBUS'],
  );
  t.deepEqual(
    await ps(
      node,
      "try { Remove-Item -LiteralPath 'HKLM:\\SYSTEM\\CurrentControlSet\\Enum' -Recurse -Force } catch { $_.Exception.Message }",
    ),
    ['Requested registry access is not allowed.'],
    'Enum itself stays',
  );
  t.like(
    await run(node, 'Invoke-PlayNetworkCleanup', { token: 't1', removeHnsNetworks: false, removeGhostAdapters: true }),
    {
      removedAdapters: [ghost.instanceId],
    },
  );
  t.deepEqual(
    node.state.pnpNetDevices.map((d) => d.status),
    ['OK', 'OK'],
  );
  t.deepEqual(await run(node, 'Test-PlayPath', { path: key }), { exists: false, isDirectory: false });
});

test('item cmdlets: 5.1 error texts, -ErrorAction honoured, registry values typed as Get-ItemProperty gives them', async (t) => {
  const node = model(t);
  const nt = "'HKLM:\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion'";
  t.deepEqual(
    await ps(
      node,
      `
try { Get-Item -LiteralPath 'C:\\nope\\x' } catch { $_.Exception.GetType().Name + ': ' + $_.Exception.Message }
[string]($null -eq (Get-Item -LiteralPath 'C:\\nope' -ErrorAction SilentlyContinue))
try { Get-ItemProperty -LiteralPath 'HKLM:\\SOFTWARE\\Nope' } catch { $_.Exception.Message }
try { Get-Item -LiteralPath 'Q:\\x' } catch { $_.Exception.GetType().Name + ': ' + $_.Exception.Message }
$p = Get-ItemProperty -LiteralPath ${nt}
$p.UBR.GetType().Name + ' ' + $p.PSPath + ' ' + $p.PSChildName
New-ItemProperty -LiteralPath ${nt} -Name Big -Value 4294967295 -PropertyType DWord | Out-Null
[string](Get-ItemProperty -LiteralPath ${nt}).Big
try { New-ItemProperty -LiteralPath ${nt} -Name Big -Value 1 -PropertyType DWord } catch { $_.Exception.Message }
try { Remove-ItemProperty -LiteralPath ${nt} -Name Nope } catch { $_.Exception.Message }
`,
    ),
    [
      "ItemNotFoundException: Cannot find path 'C:\\nope\\x' because it does not exist.",
      'True',
      "Cannot find path 'HKLM:\\SOFTWARE\\Nope' because it does not exist.",
      "DriveNotFoundException: Cannot find drive. A drive with the name 'Q' does not exist.",
      'Int32 Microsoft.PowerShell.Core\\Registry::HKEY_LOCAL_MACHINE\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion CurrentVersion',
      '-1',
      'The property already exists.',
      'Property Nope does not exist at path HKEY_LOCAL_MACHINE\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion.',
    ],
  );
  t.deepEqual(
    await ps(
      node,
      `
New-Item -Path 'HKLM:\\SOFTWARE\\Play\\A\\B' -Force | Out-Null
Set-ItemProperty -LiteralPath 'HKLM:\\SOFTWARE\\Play\\A' -Name V -Value 5
(Get-ItemProperty -LiteralPath 'HKLM:\\SOFTWARE\\Play\\A').V.GetType().Name
Set-ItemProperty -LiteralPath 'HKLM:\\SOFTWARE\\Play\\A' -Name V -Value 'abc'
(Get-ItemProperty -LiteralPath 'HKLM:\\SOFTWARE\\Play\\A').V.GetType().Name
try { Remove-Item -LiteralPath 'HKLM:\\SOFTWARE\\Play\\A' } catch { $_.Exception.Message }
try { New-Item -Path 'HKLM:\\SOFTWARE\\Play\\A' } catch { $_.Exception.Message }
try { New-Item -Path 'HKLM:\\SOFTWARE\\Play\\X\\Y' } catch { $_.Exception.Message }
New-Item -Path 'HKLM:\\SOFTWARE\\Play\\A' -Force | Out-Null
[string]($null -eq (Get-ItemProperty -LiteralPath 'HKLM:\\SOFTWARE\\Play\\A')) + ' ' + (Test-Path 'HKLM:\\SOFTWARE\\Play\\A\\B')
`,
    ),
    [
      'Int32',
      'String',
      'Windows PowerShell is in NonInteractive mode. Read and Prompt functionality is not available.',
      'A key in this path already exists.',
      'The registry key at the specified path does not exist.',
      'True False',
    ],
    "Set-ItemProperty keeps a kind the value converts to, else takes the value's; New-Item -Force recreates a key empty",
  );
  t.deepEqual(
    await ps(
      node,
      `
New-Item -ItemType Directory -Path 'C:\\k\\sub' -Force | Out-Null
[System.IO.File]::WriteAllBytes('C:\\k\\sub\\f.txt', [byte[]](65, 66))
$f = Get-Item -LiteralPath 'C:\\k\\sub\\f.txt'
'{0} {1} {2} {3}' -f $f.FullName, $f.Length, $f.PSIsContainer, $f.Mode
(Get-FileHash -LiteralPath 'C:\\k\\sub\\f.txt' -Algorithm SHA256).Hash
'{0}{1}{2}' -f (Test-Path -LiteralPath 'C:\\k\\sub' -PathType Leaf), (Test-Path -LiteralPath 'C:\\k\\sub\\f.txt' -PathType Leaf), (Test-Path 'HKLM:\\SOFTWARE' -PathType Container)
try { Remove-Item -LiteralPath 'C:\\k' -Force } catch { $_.Exception.Message }
Remove-Item -LiteralPath 'C:\\k' -Recurse -Force
[string](Test-Path 'C:\\k')
try { [System.IO.File]::Move('C:\\Users\\Administrator\\Downloads\\windows10.0-kb4538461-x64.msu', 'C:\\Users\\Administrator\\Downloads\\windows10.0-kb4532691-x64.msu') } catch { $_.Exception.Message }
try { [System.IO.File]::ReadAllBytes('C:\\nope\\x') } catch { $_.Exception.Message }
`,
    ),
    [
      'C:\\k\\sub\\f.txt 2 False -a----',
      sha('AB').toUpperCase(),
      'FalseTrueTrue',
      'Windows PowerShell is in NonInteractive mode. Read and Prompt functionality is not available.',
      'False',
      'Exception calling "Move" with "2" argument(s): "Cannot create a file when that file already exists."',
      'Exception calling "ReadAllBytes" with "1" argument(s): "Could not find a part of the path \'C:\\nope\\x\'."',
    ],
  );
});

test('w32tm: /config needs W32Time running for /update; the peer list and sync type land in W32Time\\Parameters', async (t) => {
  const node = model(t);
  const w32tm = (...args: string[]) =>
    ps(
      node,
      `${INVOKE_NATIVE}
$r = Invoke-Native -FilePath 'C:\\Windows\\System32\\w32tm.exe' -ArgumentList @(${args.map((a) => `'${a}'`).join(', ')})
'{0}|{1}' -f $r.Code, $r.Out.Trim()`,
    );
  t.deepEqual(await w32tm('/resync'), [
    '0|Sending resync command to local computer',
    'The command completed successfully.',
  ]);
  await run(node, 'Set-PlayServiceState', { name: 'W32Time', action: 'stop' });
  t.deepEqual(await w32tm('/config', '/manualpeerlist:a b', '/syncfromflags:MANUAL', '/update'), [
    '-2147023834|The following error occurred: The service has not been started. (0x80070426)',
  ]);
  t.like(await run(node, 'Get-PlayNtp', {}), { manualPeerList: 'time.windows.com,0x9' }, 'nothing written');
  await run(node, 'Set-PlayServiceState', { name: 'W32Time', action: 'start' });
  t.deepEqual(await w32tm('/config', '/manualpeerlist:a b', '/syncfromflags:DOMHIER', '/update'), [
    '0|The command completed successfully.',
  ]);
  t.like(await run(node, 'Get-PlayNtp', {}), { manualPeerList: 'a b', syncFromFlags: 'NT5DS' });
  t.deepEqual(await w32tm('/config', '/syncfromflags:SOMETIMES'), [
    '-2147024809|The following error occurred: The parameter is incorrect. (0x80070057)',
  ]);
});
