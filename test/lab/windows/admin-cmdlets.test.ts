// Everyday administration an operator types over SSH, run by the full PowerShell on the simulated
// Windows node: the Windows cmdlets (mock/Content.psm1, Children.psm1, Items.psm1, Services.psm1,
// ItemProperties.psm1) and [System.IO.File] act on the node's files, services and registry, and
// PowerShell's own commands (Add-Member, Write-Verbose...) are the real ones.
import test from 'ava';
import { readFile, writeFile } from '../../../lab/windows/file-store.js';
import type { SimulatedWindowsNode } from '../../../lab/windows/model.js';
import { sharedPowerShellHost } from '../../../lab/windows/powershell/host.js';
import { surfaceOf } from '../../../lab/windows/surface/index.js';
import { getValue } from '../../../lab/windows/registry-store.js';
import { addService, withDocker } from '../../tasks/windows/sim-node.js';
import { model } from './helpers.js';

const DAEMON = 'C:\\ProgramData\\Docker\\config\\daemon.json';

async function ps(node: SimulatedWindowsNode, script: string) {
  const out = await (await sharedPowerShellHost()).run(
    { script: `$ErrorActionPreference = 'Stop'\n${script}` },
    surfaceOf(node),
  );
  return out;
}

test("Set-Content, Add-Content and Get-Content edit the node's files with 5.1's encodings", async (t) => {
  const node = model(t, (s) => writeFile(s, DAEMON, Buffer.from('{}')));
  const out = await ps(
    node,
    `Set-Content ${DAEMON} '{"bridge":"none"}'
     Add-Content -Path ${DAEMON} -Value 'x'
     Set-Content -Path C:\\ProgramData\\u.txt -Value 'é' -Encoding UTF8
     Set-Content -Path C:\\ProgramData\\a.txt -Value 'é'
     [Console]::Out.Write(((Get-Content ${DAEMON}) -join '|') + ' ' + (Get-Content C:\\ProgramData\\u.txt -Raw).Trim() + ' ' + (Get-Content -Path C:\\ProgramData\\a.txt))`,
  );
  t.is(out.stderr, '');
  t.is(out.stdout, '{"bridge":"none"}|x é é');
  t.deepEqual(readFile(node.state, DAEMON), Buffer.from('{"bridge":"none"}\r\nx\r\n'));
  t.deepEqual(
    readFile(node.state, 'C:\\ProgramData\\u.txt'),
    Buffer.from('\ufeffé\r\n', 'utf8'),
    'UTF8 writes a BOM in 5.1',
  );
  t.deepEqual(
    readFile(node.state, 'C:\\ProgramData\\a.txt'),
    Buffer.from([0xe9, 0x0d, 0x0a]),
    'Default is the ANSI code page',
  );
  const missing = await ps(node, 'Get-Content C:\\nope.txt');
  t.regex(missing.stderr, /^Get-Content : Cannot find path 'C:\\nope\.txt' because it does not exist\./);
});

test("Get-ChildItem, Copy-Item, Move-Item, Remove-Item and Test-Path on the node's file system", async (t) => {
  const node = model(t, (s) => {
    writeFile(s, 'C:\\k\\cni\\a.conf', Buffer.from('a'));
    writeFile(s, 'C:\\k\\cni\\b.conf', Buffer.from('b'));
  });
  const out = await ps(
    node,
    `Copy-Item C:\\k\\cni\\a.conf C:\\k\\a.bak
     Move-Item C:\\k\\cni\\b.conf C:\\k\\b.moved
     Copy-Item C:\\k\\cni C:\\k\\cni2 -Recurse
     Remove-Item C:\\k\\cni2\\a.conf
     [Console]::Out.Write(((Get-ChildItem C:\\k | ForEach-Object { $_.Name }) -join ',') + ' ' + (Test-Path C:\\k\\cni\\b.conf) + ' ' + @(Get-ChildItem C:\\k -Recurse -Filter *.conf).Count)`,
  );
  t.is(out.stderr, '');
  t.is(out.stdout, 'cni,cni2,a.bak,b.moved False 1');
  t.deepEqual(readFile(node.state, 'C:\\k\\b.moved'), Buffer.from('b'));
});

test('Set-Service -StartupType, Restart-Service, Get-Service, and the registry through Set-ItemProperty', async (t) => {
  const node = model(t, (s) => {
    withDocker(s);
    addService(s, { name: 'kubelet', binPath: 'C:\\k\\kubelet.exe', dependencies: ['docker'], state: 'Running' });
  });
  const out = await ps(
    node,
    `Set-Service docker -StartupType Manual
     Restart-Service docker -Force
     Set-ItemProperty -Path HKLM:\\SOFTWARE\\Play -Name Mode -Value 3 -ErrorAction SilentlyContinue
     New-Item -Path HKLM:\\SOFTWARE\\Play -Force | Out-Null
     Set-ItemProperty -Path HKLM:\\SOFTWARE\\Play -Name Mode -Value 3
     $s = Get-Service docker
     $k = Get-Service kubelet
     $mode = (Get-ItemProperty HKLM:\\SOFTWARE\\Play).Mode
     [Console]::Out.Write("$($s.StartType) $($s.Status) $($k.Status) $mode")`,
  );
  t.is(out.stderr, '');
  t.is(out.stdout, 'Manual Running Running 3');
  t.is(node.state.services['docker']!.startMode, 'Manual');
  t.like(getValue(node.state, 'HKLM:\\SOFTWARE\\Play', 'Mode'), { data: 3 });
  const refused = await ps(node, 'Restart-Service docker');
  t.regex(refused.stderr, /Cannot stop service 'Docker Engine \(docker\)' because it has dependent services/);
});

test("[System.IO.File] text members act on the node; Add-Member and Write-Verbose are PowerShell's own", async (t) => {
  const node = model(t);
  const out = await ps(
    node,
    `New-Item -ItemType Directory C:\\k | Out-Null
     [System.IO.File]::WriteAllText('C:\\k\\t.txt', "节点\`n")
     [IO.File]::AppendAllText('C:\\k\\t.txt', 'ok')
     $o = New-Object PSObject | Add-Member -NotePropertyName n -NotePropertyValue 1 -PassThru
     Write-Verbose 'quiet by default'
     Write-Verbose 'shown' -Verbose
     [Console]::Out.Write([System.IO.File]::ReadAllText('C:\\k\\t.txt') + ' ' + $o.n)`,
  );
  t.is(out.stdout, '节点\nok 1');
  t.deepEqual(out.streams, [['verbose', 'shown\r\n']]);
  t.deepEqual(readFile(node.state, 'C:\\k\\t.txt'), Buffer.from('节点\nok', 'utf8'));
});
