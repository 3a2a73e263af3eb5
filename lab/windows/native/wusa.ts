// wusa.exe on the simulated node: every program here runs from an SSH session, which Windows counts
// as a network logon, and the Windows Update Agent that wusa uses refuses it: exit -2147024891
// (0x80070005, E_ACCESSDENIED), nothing on stdout (the code is in the Setup event log), whatever the
// arguments (docs/domain.md#hotfix-to-a-pinned-build). Updates go in through expand.exe and dism.exe.
import type { NativeProgram } from './program.js';

export const WUSA_ACCESS_DENIED = -2147024891;

export const wusa: NativeProgram = () => ({ code: WUSA_ACCESS_DENIED });
