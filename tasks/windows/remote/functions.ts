// Every PowerShell function of the contract, each with its definition and its schemas (remote/ps-*.ts:
// playFunction; the step folders' tasks/windows/steps/<step>/remote.ts: stepRemote): the type makes a
// missing one a compile error, and the tests syntax-check each definition and each program the steps send.
import * as STEPS from '../steps/index.js';
import { mergeRemotes } from '../steps/step-remote.js';
import type { ContractFunction, PlayFunctionName } from './contract.js';
import { GET_DOCKER_IMAGE, INVOKE_DOCKER_PULL } from './ps-docker.js';
import { ADD_FILE_CHUNK, COMPLETE_UPLOAD, GET_FILE, SET_FILE } from './ps-files.js';
import { EXPAND_HOTFIX_STAGE, GET_HOTFIX_STAGE } from './ps-hotfix-stage.js';
import { GET_HNS_NETWORK, NEW_HNS_NETWORK, REMOVE_HNS_NETWORK } from './ps-hns.js';
import { GET_HOTFIX, GET_OS_INFO, INSTALL_HOTFIX, RESTART_COMPUTER, TEST_PATH } from './ps-os.js';
import { GET_HOTFIX_PACKAGE, REMOVE_HOTFIX } from './ps-hotfix-removal.js';
import { GET_SERVICE, SET_SERVICE, SET_SERVICE_STATE } from './ps-services.js';

export type StepFunctionName = keyof ReturnType<typeof mergeRemotes<typeof STEPS>> & PlayFunctionName;

/** The functions of remote/ps-*.ts, each under its contract name. */
const CONTRACT_FUNCTIONS = {
  'Get-PlayOsInfo': GET_OS_INFO,
  'Get-PlayHotfix': GET_HOTFIX,
  'Install-PlayHotfix': INSTALL_HOTFIX,
  'Get-PlayHotfixPackage': GET_HOTFIX_PACKAGE,
  'Remove-PlayHotfix': REMOVE_HOTFIX,
  'Get-PlayHotfixStage': GET_HOTFIX_STAGE,
  'Expand-PlayHotfixStage': EXPAND_HOTFIX_STAGE,
  'Test-PlayPath': TEST_PATH,
  'Restart-PlayComputer': RESTART_COMPUTER,
  'Get-PlayDockerImage': GET_DOCKER_IMAGE,
  'Invoke-PlayDockerPull': INVOKE_DOCKER_PULL,
  'Get-PlayFile': GET_FILE,
  'Set-PlayFile': SET_FILE,
  'Add-PlayFileChunk': ADD_FILE_CHUNK,
  'Complete-PlayUpload': COMPLETE_UPLOAD,
  'Get-PlayService': GET_SERVICE,
  'Set-PlayService': SET_SERVICE,
  'Set-PlayServiceState': SET_SERVICE_STATE,
  'Get-PlayHnsNetwork': GET_HNS_NETWORK,
  'New-PlayHnsNetwork': NEW_HNS_NETWORK,
  'Remove-PlayHnsNetwork': REMOVE_HNS_NETWORK,
} satisfies { readonly [F in Exclude<PlayFunctionName, StepFunctionName>]: ContractFunction<F> };

export const PLAY_FUNCTIONS: { readonly [F in PlayFunctionName]: ContractFunction<F> } = Object.freeze({
  ...(mergeRemotes(STEPS) as unknown as { readonly [F in StepFunctionName]: ContractFunction<F> }),
  ...CONTRACT_FUNCTIONS,
});
