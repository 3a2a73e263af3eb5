// The node's one volume as Win32_LogicalDisk (mock/Cim.psm1) sees it: C:, its size and its free
// bytes, the test knob state.freeDiskBytes (lab/windows/README.md, faults) so that a test can fill it.
import type { Ops } from './types.js';

/** What a fresh node has free on C: (a 127 GB Azure OS disk, a third used). */
export const DEFAULT_FREE_DISK_BYTES = 85 * 1024 ** 3;
const DISK_SIZE_BYTES = 127 * 1024 ** 3;

export const diskOps: Ops = {
  'Disk.List': (node) => [
    {
      deviceId: 'C:',
      size: DISK_SIZE_BYTES,
      freeSpace: Math.min(node.state.freeDiskBytes ?? DEFAULT_FREE_DISK_BYTES, DISK_SIZE_BYTES),
    },
  ],
};
