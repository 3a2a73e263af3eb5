// The operating system as Win32_OperatingSystem (mock/Cim.psm1) and Get-HotFix (mock/Os.psm1) see
// it: caption, build, boot time and the installed updates (Win32_QuickFixEngineering).
import type { Ops } from './types.js';

export const osOps: Ops = {
  'Os.Info': (node) => {
    const { os, hostname } = node.state;
    return {
      caption: os.caption,
      version: os.version,
      build: os.build,
      revision: os.revision,
      lastBootUpTime: os.lastBootUpTime,
      hostname,
    };
  },

  /** Win32_QuickFixEngineering: installedOn as yyyy-MM-dd (the mock makes it a DateTime, as 5.1's InstalledOn is). */
  'Os.Hotfixes': (node) =>
    node.state.hotfixes.map((h) => ({
      hotFixId: h.kb,
      installedOn: h.installedOn,
      description: 'Update',
      hostname: node.state.hostname,
    })),
};
