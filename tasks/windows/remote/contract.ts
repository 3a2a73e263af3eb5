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

// The registry value types live with the registry value step (steps/registry-value/remote.ts).
export { REGISTRY_TYPE, type RegistryType } from '../steps/registry-value/remote.js';

export const SERVICE_START_MODE = z.enum(['Auto', 'Manual', 'Disabled']);
export const SERVICE_STATE = z.enum(['Running', 'Stopped', 'StartPending', 'StopPending', 'Paused']);

export type ServiceStartMode = z.infer<typeof SERVICE_START_MODE>;
export type ServiceState = z.infer<typeof SERVICE_STATE>;

const NO_ARGS = z.strictObject({});
/** What a function that only acts returns: `[ordered]@{}`. */
const DONE = z.strictObject({});

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

  // --- Docker --------------------------------------------------------------------------------
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
