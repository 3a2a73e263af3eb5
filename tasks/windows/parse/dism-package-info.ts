// What `dism.exe /online /get-packageinfo /packagepath:<cab>` prints, read into the facts hotfix
// staging verifies (hotfix-stage.ts): whether the package applies to this image and its state.
//
//   Package Identity : Package_for_RollupFix~31bf3856ad364e35~amd64~~17763.1217.1.7
//   Applicable : Yes
//   ...
//   Restart Required : Required
//   State : Not Present
//
// Keys and values are split at the first ' : ' (CR and surrounding spaces removed); DISM prints the
// keys in English whatever the Windows language. The banner, the "Features listing" and the last line
// are passed over. Text without Applicable and State is not a package's info: an error, never a guess. Pure.

/** DISM's package states (DismPackageFeatureState); Superseded and Staged appear on serviced images. */
export type DismPackageState =
  | 'Not Present'
  | 'Uninstall Pending'
  | 'Staged'
  | 'Removed'
  | 'Installed'
  | 'Install Pending'
  | 'Superseded'
  | 'Partially Installed';

const STATES: readonly DismPackageState[] = [
  'Not Present',
  'Uninstall Pending',
  'Staged',
  'Removed',
  'Installed',
  'Install Pending',
  'Superseded',
  'Partially Installed',
];

export interface DismPackageInfo {
  readonly identity: string | null;
  readonly applicable: boolean;
  readonly state: DismPackageState;
  /** As printed: Required, Not Required, Possible; null when DISM did not say. */
  readonly restartRequired: string | null;
}

function fields(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const raw of text.split('\n')) {
    const line = raw.replace(/\r$/, '');
    const at = line.indexOf(' : ');
    if (at <= 0) continue;
    const key = line.slice(0, at).trim();
    if (!out.has(key)) out.set(key, line.slice(at + 3).trim());
  }
  return out;
}

export function parseDismPackageInfo(text: string): DismPackageInfo {
  const f = fields(text);
  const applicable = f.get('Applicable');
  const state = f.get('State');
  if (applicable === undefined || state === undefined)
    throw new Error(
      `dism /get-packageinfo printed no package information (no Applicable and State lines): ${JSON.stringify(text.trim().slice(0, 300))}`,
    );
  if (applicable !== 'Yes' && applicable !== 'No')
    throw new Error(`dism /get-packageinfo: Applicable is ${JSON.stringify(applicable)}, not Yes or No`);
  if (!(STATES as readonly string[]).includes(state))
    throw new Error(`dism /get-packageinfo: unknown package State ${JSON.stringify(state)}`);
  return {
    identity: f.get('Package Identity') ?? null,
    applicable: applicable === 'Yes',
    state: state as DismPackageState,
    restartRequired: f.get('Restart Required') ?? null,
  };
}
