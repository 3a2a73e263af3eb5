// The scheduled task's remote functions (ScheduledTasks module, Windows Server 2019's PowerShell 5.1):
// the contract of each and its body, the .ps1 file of its name in this folder.
import { z } from 'zod';
import { powerShellFile, psList, stepRemote } from '../step-remote.js';

const TASK = { /** Task name, no folder. */ name: z.string(), /** Task folder: `\` or `\Play\`. */ path: z.string() };

const TRIGGER = z.union([
  z.strictObject({ kind: z.literal('atStartup') }),
  /** at: HH:mm, the local time of day. */
  z.strictObject({ kind: z.literal('daily'), at: z.string() }),
]);

export const SCHEDULED_TASK_REMOTE = stepRemote({
  /**
   * Get-ScheduledTask: null when there is no such task. state: Ready, Disabled, Running...; userId:
   * Principal.UserId (SYSTEM for the LocalSystem account); each trigger by its CIM class
   * (MSFT_TaskBootTrigger, MSFT_TaskDailyTrigger, ...) with StartBoundary as Windows keeps it.
   */
  'Get-PlayScheduledTask': {
    args: z.strictObject(TASK),
    result: z
      .strictObject({
        state: z.string(),
        userId: z.string(),
        actions: psList(z.strictObject({ execute: z.string(), arguments: z.string() })),
        triggers: psList(z.strictObject({ type: z.string(), startBoundary: z.string(), daysInterval: z.number() })),
      })
      .nullable(),
    body: powerShellFile(import.meta.url, './Get-PlayScheduledTask.ps1'),
  },
  /**
   * Register-ScheduledTask (create: every field given) or Set-ScheduledTask with the given parts
   * (the action for execute and arguments, the trigger, the principal), then Enable-/Disable-ScheduledTask.
   */
  'Set-PlayScheduledTask': {
    args: z.strictObject({
      ...TASK,
      create: z.boolean(),
      execute: z.string().optional(),
      arguments: z.string().optional(),
      trigger: TRIGGER.optional(),
      user: z.string().optional(),
      enabled: z.boolean().optional(),
    }),
    result: z.strictObject({}),
    body: powerShellFile(import.meta.url, './Set-PlayScheduledTask.ps1'),
  },
  /** Unregister-ScheduledTask -Confirm:$false. */
  'Remove-PlayScheduledTask': {
    args: z.strictObject(TASK),
    result: z.strictObject({}),
    body: powerShellFile(import.meta.url, './Remove-PlayScheduledTask.ps1'),
  },
});
