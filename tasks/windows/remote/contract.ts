// The JSON contract of the Windows steps' remote half: for every PowerShell function a step may
// call, the shape of its one argument and of what it returns, declared once as a runtime schema.
// The TypeScript types are inferred from it, and both sides are checked against it at run time:
// the steps' calls before they leave (calls.ts) and every result that comes back, from a real node
// or from the simulated one (validate.ts). `null` means absent. Names follow PowerShell's verb-noun
// style with a `Play` prefix. Objects are strict both ways: an unknown field is a bug (a misspelt
// argument, or a property the PowerShell side misnamed), never something to ignore. A string argument
// may be given as a Secret (calls.ts): it reaches the function as a plain string, but is sent apart
// from the arguments' JSON, so a field is never named `playSecret` (that object stands for a secret).
// A list in a result is a psList: PowerShell 5.1 can hand back a one-element list as its element, or
// an empty one as null; both are read as the list they stand for, so the steps only ever see arrays.
// Long because it is the whole contract in one table: one entry per remote function, each a few lines.
import { z } from 'zod';
import * as STEPS from '../steps/index.js';
import { mergeRemotes, psList } from '../steps/step-remote.js';
import { psFunction } from '../../../runner/core/ps-call.js';
import type { CallArgs } from './call-args.js';
import { type PlayFunction, withSchemas } from './calls.js';
import { checkArgs, checkResult } from './validate.js';

export const SERVICE_START_MODE = z.enum(['Auto', 'Manual', 'Disabled']);
export const SERVICE_STATE = z.enum(['Running', 'Stopped', 'StartPending', 'StopPending', 'Paused']);
export const REGISTRY_TYPE = z.enum(['String', 'ExpandString', 'DWord', 'QWord', 'MultiString', 'Binary']);

export type ServiceStartMode = z.infer<typeof SERVICE_START_MODE>;
export type ServiceState = z.infer<typeof SERVICE_STATE>;
export type RegistryType = z.infer<typeof REGISTRY_TYPE>;

const NO_ARGS = z.strictObject({});
/** What a function that only acts returns: `[ordered]@{}`. */
const DONE = z.strictObject({});
const REGISTRY_DATA = z.union([z.string(), z.number(), z.array(z.string())]);
const FIREWALL_RULE = {
  name: z.string(),
  displayName: z.string(),
  enabled: z.boolean(),
  direction: z.enum(['Inbound', 'Outbound']),
  protocol: z.string(),
  localPort: z.string(),
  action: z.enum(['Allow', 'Block']),
};

export const CONTRACT = {
  // --- OS, boot, hotfixes (docs/domain.md#hotfix-to-a-pinned-build) ---------------------------------
  'Get-PlayOsInfo': {
    args: NO_ARGS,
    result: z.strictObject({
      caption: z.string(),
      /** 10.0.17763 */
      version: z.string(),
      build: z.number(),
      revision: z.number(),
      /** ISO 8601 */
      lastBootUpTime: z.string(),
      pendingReboot: z.boolean(),
    }),
  },
  /**
   * installed: Get-HotFix lists the KB; installedOn: its date (yyyy-MM-dd) when Windows knows it.
   * dismExitCode: what dism.exe /add-package returned the last time Install-PlayHotfix ran for this KB
   * on this host (recorded under HKLM:\\SOFTWARE\\Play\\Hotfixes, value <KB>), null if it never ran: a
   * KB that DISM found not applicable (superseded) is never listed by Get-HotFix, and the step needs to know.
   * msuPresent: whether msuPath is a file on the host (null when no msuPath is given), so that a plan
   * says an install will fail before a rolling upgrade drains the node.
   */
  'Get-PlayHotfix': {
    args: z.strictObject({ /** KB4549949 */ kb: z.string(), msuPath: z.string().optional() }),
    result: z.strictObject({
      installed: z.boolean(),
      installedOn: z.string().nullable(),
      dismExitCode: z.number().nullable(),
      msuPresent: z.boolean().nullable(),
    }),
  },
  /**
   * expand.exe -F:* <msu> <temp dir>, then dism.exe /online /add-package /packagepath:<dir>\Windows10.0-<KB>-x64.cab
   * /quiet /norestart. exitCode as DISM returned it (0, 3010, -2146498530 = 0x800f081e not applicable, ...),
   * also recorded for Get-PlayHotfix's dismExitCode; output: DISM's text (with /quiet, its errors only).
   * Throws when msuPath is not a file, expand.exe fails, or the package holds no CAB for the KB.
   */
  'Install-PlayHotfix': {
    args: z.strictObject({ kb: z.string(), msuPath: z.string() }),
    /** packageName: once installed (0, 3010), the identity from the .msu's XML (recorded for Get-PlayHotfixPackage); else null. */
    result: z.strictObject({ exitCode: z.number(), output: z.string(), packageName: z.string().nullable() }),
  },
  /** installed: Get-HotFix lists the KB; packageName: the identity Install-PlayHotfix recorded for it (null: none). */
  'Get-PlayHotfixPackage': {
    args: z.strictObject({ kb: z.string() }),
    result: z.strictObject({ installed: z.boolean(), packageName: z.string().nullable() }),
  },
  /**
   * dism.exe /online /remove-package /packagename:<name> /quiet /norestart: its exit code and text (hotfix-removal.ts).
   * Once removed (0, 3010) the KB's records (Install-PlayHotfix's exit code and package) go, so a later install runs.
   */
  'Remove-PlayHotfix': {
    args: z.strictObject({ kb: z.string(), packageName: z.string() }),
    result: z.strictObject({ exitCode: z.number(), output: z.string() }),
  },
  /**
   * Hotfix staging (ps-hotfix-stage.ts): the .msu at msuPath (sha256, size; null: absent), the free
   * bytes of its drive, the SHA-256 of the .msu the folder stageDir was expanded from (null: not
   * staged) and, when staged, DISM's /get-packageinfo of its update CAB (exit code and text).
   */
  'Get-PlayHotfixStage': {
    args: z.strictObject({ kb: z.string(), msuPath: z.string(), stageDir: z.string() }),
    result: z.strictObject({
      installed: z.boolean(),
      msuSha256: z.string().nullable(),
      msuSize: z.number().nullable(),
      freeBytes: z.number().nullable(),
      stagedFrom: z.string().nullable(),
      packageInfo: z.strictObject({ exitCode: z.number(), output: z.string() }).nullable(),
    }),
  },
  /** stageDir emptied, the .msu expanded into it (expand.exe -F:*), DISM's /get-packageinfo of the CAB, the marker. */
  'Expand-PlayHotfixStage': {
    args: z.strictObject({ kb: z.string(), msuPath: z.string(), stageDir: z.string() }),
    result: z.strictObject({
      msuSha256: z.string(),
      packageInfo: z.strictObject({ exitCode: z.number(), output: z.string() }),
    }),
  },
  'Test-PlayPath': {
    args: z.strictObject({ path: z.string() }),
    result: z.strictObject({ exists: z.boolean(), isDirectory: z.boolean() }),
  },
  /** Schedules a restart (shutdown.exe /r /t N) and returns at once; the connection drops soon after. */
  'Restart-PlayComputer': {
    args: z.strictObject({ delaySeconds: z.number() }),
    result: z.strictObject({ scheduled: z.boolean() }),
  },

  // --- Features and capabilities -------------------------------------------------------------
  'Get-PlayWindowsFeature': {
    args: z.strictObject({ name: z.string() }),
    result: z
      .strictObject({ name: z.string(), installState: z.enum(['Installed', 'Available', 'InstallPending', 'Removed']) })
      .nullable(),
  },
  'Install-PlayWindowsFeature': {
    args: z.strictObject({ name: z.string() }),
    result: z.strictObject({ restartNeeded: z.boolean() }),
  },
  'Get-PlayWindowsCapability': {
    args: z.strictObject({ /** OpenSSH.Server~~~~0.0.1.0 */ name: z.string() }),
    result: z
      .strictObject({ name: z.string(), state: z.enum(['Installed', 'NotPresent', 'InstallPending']) })
      .nullable(),
  },
  'Add-PlayWindowsCapability': {
    args: z.strictObject({ name: z.string() }),
    result: z.strictObject({ restartNeeded: z.boolean() }),
  },

  // --- Docker --------------------------------------------------------------------------------
  /** Raw `docker version` output (null when docker.exe is absent) and the service's existence. */
  'Get-PlayDockerEngine': {
    args: NO_ARGS,
    result: z.strictObject({ dockerVersion: z.string().nullable(), serviceExists: z.boolean() }),
  },
  /** Install-Module DockerMsftProvider; Install-Package Docker -ProviderName DockerMsftProvider. */
  'Install-PlayDockerEngine': {
    args: z.strictObject({ version: z.string().nullable() }),
    result: z.strictObject({ restartNeeded: z.boolean() }),
  },
  /**
   * `docker image inspect <reference>`: id (sha256:<hex>) and RepoTags. image null when the image is
   * absent or the daemon does not answer (daemonRunning false, also when docker.exe is absent).
   */
  'Get-PlayDockerImage': {
    args: z.strictObject({ reference: z.string() }),
    result: z.strictObject({
      daemonRunning: z.boolean(),
      image: z.strictObject({ id: z.string(), repoTags: psList(z.string()) }).nullable(),
    }),
  },
  /** `docker pull <reference>`, then the pulled image's id; throws docker's stderr text when the pull fails. */
  'Invoke-PlayDockerPull': {
    args: z.strictObject({ reference: z.string() }),
    result: z.strictObject({ id: z.string() }),
  },

  // --- Files and registry --------------------------------------------------------------------
  /** Content is returned (base64) only when the file is at most maxBytes; sha256 always. */
  'Get-PlayFile': {
    args: z.strictObject({ path: z.string(), maxBytes: z.number() }),
    result: z.strictObject({ sha256: z.string(), size: z.number(), contentBase64: z.string().nullable() }).nullable(),
  },
  /** Appends one piece of an upload to its temp file (offset 0 creates it afresh). */
  'Add-PlayFileChunk': {
    args: z.strictObject({ path: z.string(), offset: z.number(), contentBase64: z.string() }),
    result: z.strictObject({ size: z.number() }),
  },
  /**
   * Checks the uploaded temp file's sha256, then moves it into place; with expectedSha256 (null: absent)
   * only if the destination is still as planned (Set-PlayFile's guard).
   */
  'Complete-PlayUpload': {
    args: z.strictObject({
      tempPath: z.string(),
      path: z.string(),
      sha256: z.string(),
      expectedSha256: z.string().nullable().optional(),
    }),
    result: z.strictObject({ sha256: z.string() }),
  },
  /** Writes atomically (temp file, then move); creates missing parent directories. */
  'Set-PlayFile': {
    args: z.strictObject({
      path: z.string(),
      contentBase64: z.string(),
      /** guard: current content, or null for absent */
      expectedSha256: z.string().nullable(),
    }),
    result: z.strictObject({ sha256: z.string() }),
  },
  /**
   * path: `HKLM:\\...` (also HKCU:, HKCR:, HKU:), the 64-bit view; name `(default)` is the key's default
   * value. data by type: String/ExpandString a string (ExpandString not expanded), DWord/QWord an
   * unsigned number, MultiString a string[], Binary lowercase hex ('' when empty). type may also be
   * None or Unknown (RegistryValueKind of a value no step writes, data then a string): the step
   * reads that as a type to replace.
   */
  'Get-PlayRegistryValue': {
    args: z.strictObject({ /** HKLM:\\SOFTWARE\\... */ path: z.string(), name: z.string() }),
    result: z
      .strictObject({ type: z.enum([...REGISTRY_TYPE.options, 'None', 'Unknown']), data: REGISTRY_DATA })
      .nullable(),
  },
  'Set-PlayRegistryValue': {
    args: z.strictObject({ path: z.string(), name: z.string(), type: REGISTRY_TYPE, data: REGISTRY_DATA }),
    result: DONE,
  },

  // --- Services (sc.exe; docs/domain.md, steps 11-13) -------------------------------------------
  /**
   * Raw outputs of `sc.exe qc NAME 8192` and `sc.exe queryex NAME` (parsed on our side, tested
   * against the field notes' real outputs), plus the names of the services that depend on it.
   * null outputs when the service does not exist (sc.exe exit 1060).
   */
  'Get-PlayService': {
    args: z.strictObject({ name: z.string() }),
    result: z.strictObject({ qc: z.string(), queryex: z.string(), dependents: psList(z.string()) }).nullable(),
  },
  /** sc.exe create / sc.exe config for the given fields (password is a Secret on the TS side). */
  'Set-PlayService': {
    args: z.strictObject({
      name: z.string(),
      create: z.boolean(),
      binPath: z.string().optional(),
      displayName: z.string().optional(),
      startMode: SERVICE_START_MODE.optional(),
      dependencies: z.array(z.string()).optional(),
      account: z.string().optional(),
      password: z.string().optional(),
    }),
    result: DONE,
  },
  /** Starts/stops; restart stops running dependents first and starts them again after (docs/field-notes.md#b-restarting-a-service-with-dependents). */
  'Set-PlayServiceState': {
    args: z.strictObject({ name: z.string(), action: z.enum(['start', 'stop', 'restart']) }),
    result: z.strictObject({ state: SERVICE_STATE, pid: z.number(), restartedDependents: psList(z.string()) }),
  },
  /** Raw `nssm get NAME <parameter>` outputs (nssm writes UTF-16LE; decoded), null if not an nssm service. */
  'Get-PlayNssmService': {
    args: z.strictObject({ name: z.string() }),
    result: z
      .strictObject({
        Application: z.string(),
        AppParameters: z.string(),
        AppDirectory: z.string(),
        DependOnService: z.string(),
      })
      .nullable(),
  },
  'Set-PlayNssmService': {
    args: z.strictObject({
      name: z.string(),
      install: z.boolean(),
      application: z.string().optional(),
      appParameters: z.string().optional(),
      appDirectory: z.string().optional(),
      dependOnService: z.array(z.string()).optional(),
    }),
    result: DONE,
  },

  // --- HNS (docs/domain.md#step-8-hns-network) ------------------------------------------------
  'Get-PlayHnsNetwork': {
    args: z.strictObject({ name: z.string() }),
    result: z
      .strictObject({
        id: z.string(),
        name: z.string(),
        type: z.string(),
        addressPrefix: z.string(),
        gateway: z.string(),
        adapterName: z.string(),
      })
      .nullable(),
  },
  /** New-HNSNetwork -Type L2Bridge ...: the NIC blinks, open connections can drop (docs/field-notes.md#a-hns-network-and-endpoint). */
  'New-PlayHnsNetwork': {
    args: z.strictObject({
      name: z.string(),
      type: z.literal('L2Bridge'),
      addressPrefix: z.string(),
      gateway: z.string(),
      adapterName: z.string(),
    }),
    result: z.strictObject({ id: z.string() }),
  },
  'Remove-PlayHnsNetwork': { args: z.strictObject({ name: z.string() }), result: DONE },
  /**
   * gateway as HNS stores it ('' when it has none: the steps read that as 0.0.0.0); compartmentId 1
   * when the endpoint's vNIC "vEthernet (<name>)" is in the host's default compartment, else null;
   * forwarding: that vNIC's IPv4 forwarding is enabled.
   */
  'Get-PlayHnsEndpoint': {
    args: z.strictObject({ name: z.string() }),
    result: z
      .strictObject({
        id: z.string(),
        name: z.string(),
        networkName: z.string(),
        ipAddress: z.string(),
        gateway: z.string(),
        compartmentId: z.number().nullable(),
        forwarding: z.boolean(),
      })
      .nullable(),
  },
  'New-PlayHnsEndpoint': {
    args: z.strictObject({ name: z.string(), networkName: z.string(), ipAddress: z.string(), gateway: z.string() }),
    result: z.strictObject({ id: z.string() }),
  },
  'Remove-PlayHnsEndpoint': { args: z.strictObject({ name: z.string() }), result: DONE },
  /** Attach-HnsHostEndpoint -CompartmentID N, and netsh int ipv4 set int "vEthernet (<name>)" for=en. */
  'Set-PlayHnsEndpointHost': {
    args: z.strictObject({ name: z.string(), compartmentId: z.number(), forwarding: z.boolean() }),
    result: DONE,
  },

  // --- Firewall, updates (time: tasks/windows/steps/) ---------------------------------------------------------------
  'Get-PlayFirewallRule': {
    args: z.strictObject({ name: z.string() }),
    result: z.strictObject(FIREWALL_RULE).nullable(),
  },
  'Set-PlayFirewallRule': { args: z.strictObject(FIREWALL_RULE), result: DONE },
  /** HKLM:\SOFTWARE\Policies\Microsoft\Windows\WindowsUpdate\AU NoAutoUpdate / AUOptions. */
  'Get-PlayAutoUpdate': {
    args: NO_ARGS,
    result: z.strictObject({ noAutoUpdate: z.number().nullable(), auOptions: z.number().nullable() }),
  },
  /** scregedit.wsf /AU 1 semantics: net stop wuauserv, NoAutoUpdate=1, net start wuauserv. */
  'Set-PlayAutoUpdate': { args: z.strictObject({ enabled: z.boolean() }), result: DONE },

  // --- NICs and the DNS client (docs/domain.md#step-2-nics-and-dns-client; optional) -----------------------
  /**
   * The physical adapters with these MACs (00-15-5D-00-00-01 form; missing ones are left out).
   * ipInterface: where the IP configuration lives: the adapter itself, or the vSwitch's host vNIC
   * "vEthernet (<name>)" (same MAC) once an HNS network is bound to it (docs/domain.md#step-8-hns-network). ipv4:
   * "address/prefix" of the static and DHCP addresses (not APIPA); gateway: the 0.0.0.0/0 next hop.
   */
  'Get-PlayNetAdapters': {
    args: z.strictObject({ macAddresses: z.array(z.string()) }),
    result: z.strictObject({
      adapters: psList(
        z.strictObject({
          macAddress: z.string(),
          name: z.string(),
          interfaceIndex: z.number(),
          ipInterface: z.string(),
          dhcp: z.boolean(),
          ipv4: psList(z.string()),
          gateway: z.string().nullable(),
          dnsServers: psList(z.string()),
        }),
      ),
    }),
  },
  /**
   * For the adapter with this MAC, the given fields only (on its ipInterface): ipv4 is the exact set
   * of static addresses (DHCP turned off, others removed), gateway the only default route, then the
   * adapter is renamed (Rename-NetAdapter) last.
   */
  'Set-PlayNetAdapter': {
    args: z.strictObject({
      macAddress: z.string(),
      newName: z.string().optional(),
      ipv4: z.array(z.string()).optional(),
      gateway: z.string().optional(),
      dnsServers: z.array(z.string()).optional(),
    }),
    result: DONE,
  },
  /** primaryDomain: Tcpip\Parameters `NV Domain` (null when unset); suffixSearchList: Get-DnsClientGlobalSetting. */
  'Get-PlayDnsClient': {
    args: NO_ARGS,
    result: z.strictObject({ primaryDomain: z.string().nullable(), suffixSearchList: psList(z.string()) }),
  },
  'Set-PlayDnsClient': {
    args: z.strictObject({ primaryDomain: z.string().optional(), suffixSearchList: z.array(z.string()).optional() }),
    result: DONE,
  },

  // --- Destructive network clean-up (docs/domain.md#step-1-network-clean-up; only when asked) ----------
  /**
   * token: HKLM:\SOFTWARE\Play\NetworkCleanup `Token`, written by the last clean-up (null: never
   * ran); rebootPending: the node has not booted since that clean-up (its BootTime value is the
   * current LastBootUpTime); what a clean-up would remove now: every HNS network, and the network devices in state
   * Error (ghost virtual adapters, `Get-PnpDevice -Class Net | ? Status -eq Error`).
   */
  'Get-PlayNetworkCleanup': {
    args: NO_ARGS,
    result: z.strictObject({
      token: z.string().nullable(),
      rebootPending: z.boolean(),
      hnsNetworks: psList(z.string()),
      ghostAdapters: psList(z.strictObject({ instanceId: z.string(), friendlyName: z.string() })),
    }),
  },
  /** Removes them (ghosts: their HKLM\SYSTEM\CurrentControlSet\Enum keys, docs/field-notes.md#a-network-clean-up-and-nics), then records the token; a reboot completes it. */
  'Invoke-PlayNetworkCleanup': {
    args: z.strictObject({ token: z.string(), removeHnsNetworks: z.boolean(), removeGhostAdapters: z.boolean() }),
    result: z.strictObject({ removedNetworks: psList(z.string()), removedAdapters: psList(z.string()) }),
  },

  // --- The step folders' functions (tasks/windows/steps/<step>/remote.ts) ---------------------------
  ...mergeRemotes(STEPS),
} satisfies Record<string, { args: z.ZodType; result: z.ZodType }>;

export type PlayFunctionName = keyof typeof CONTRACT;
/** As a step passes it: optional fields may be left out. */
export type ArgsOf<F extends PlayFunctionName> = z.input<(typeof CONTRACT)[F]['args']>;
/** As a step reads it, once validated (lists normalized). */
export type ResultOf<F extends PlayFunctionName> = z.output<(typeof CONTRACT)[F]['result']>;

/** A function of the contract: its body (remote/ps-*.ts) with the schemas of its name. */
export function playFunction<F extends PlayFunctionName>(name: F, body: string): ContractFunction<F> {
  return withSchemas(psFunction(name, body), entry(name).args, entry(name).result) as unknown as ContractFunction<F>;
}

/** A contract function as a step calls it: with ArgsOf its name, reading ResultOf it. */
export type ContractFunction<F extends PlayFunctionName> = PlayFunction<ArgsOf<F>, ResultOf<F>> & { readonly name: F };

function entry<F extends PlayFunctionName>(fn: F): (typeof CONTRACT)[F] {
  if (!Object.hasOwn(CONTRACT, fn)) throw new Error(`${fn} is not a function of the Windows contract`);
  return CONTRACT[fn];
}

/** Throws unless `args` fit the arguments of the contract function named `fn` (validate.ts's messages). */
export function validateArgs<F extends PlayFunctionName>(fn: F, args: unknown): asserts args is CallArgs<ArgsOf<F>> {
  checkArgs(fn, entry(fn).args, args);
}

/** The result of the contract function named `fn`, checked and normalized (a test double checks what it answers). */
export function validateResult<F extends PlayFunctionName>(fn: F, value: unknown): ResultOf<F> {
  return checkResult(fn, entry(fn).result, value) as ResultOf<F>;
}
