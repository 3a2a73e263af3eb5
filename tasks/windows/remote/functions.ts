// Every PowerShell function of the contract, each with its definition and its schemas (remote/ps-*.ts:
// playFunction; the step folders' tasks/windows/steps/<step>/remote.ts: stepRemote): the type makes a
// missing one a compile error, and the tests syntax-check each definition and each program the steps send.
import * as STEPS from '../steps/index.js';
import { mergeRemotes } from '../steps/step-remote.js';
import type { ContractFunction, PlayFunctionName } from './contract.js';
import { GET_DOCKER_ENGINE, GET_DOCKER_IMAGE, INSTALL_DOCKER_ENGINE, INVOKE_DOCKER_PULL } from './ps-docker.js';
import {
  ADD_FILE_CHUNK,
  COMPLETE_UPLOAD,
  GET_FILE,
  GET_REGISTRY_VALUE,
  SET_FILE,
  SET_REGISTRY_VALUE,
} from './ps-files.js';
import { EXPAND_HOTFIX_STAGE, GET_HOTFIX_STAGE } from './ps-hotfix-stage.js';
import {
  GET_HNS_ENDPOINT,
  GET_HNS_NETWORK,
  NEW_HNS_ENDPOINT,
  NEW_HNS_NETWORK,
  REMOVE_HNS_ENDPOINT,
  REMOVE_HNS_NETWORK,
  SET_HNS_ENDPOINT_HOST,
} from './ps-hns.js';
import {
  ADD_WINDOWS_CAPABILITY,
  GET_HOTFIX,
  GET_OS_INFO,
  GET_WINDOWS_CAPABILITY,
  GET_WINDOWS_FEATURE,
  INSTALL_HOTFIX,
  INSTALL_WINDOWS_FEATURE,
  RESTART_COMPUTER,
  TEST_PATH,
} from './ps-os.js';
import {
  GET_DNS_CLIENT,
  GET_NET_ADAPTERS,
  GET_NETWORK_CLEANUP,
  INVOKE_NETWORK_CLEANUP,
  SET_DNS_CLIENT,
  SET_NET_ADAPTER,
} from './ps-network.js';
import { GET_HOTFIX_PACKAGE, REMOVE_HOTFIX } from './ps-hotfix-removal.js';
import { GET_NSSM_SERVICE, GET_SERVICE, SET_NSSM_SERVICE, SET_SERVICE, SET_SERVICE_STATE } from './ps-services.js';
import { GET_AUTO_UPDATE, GET_FIREWALL_RULE, SET_AUTO_UPDATE, SET_FIREWALL_RULE } from './ps-system.js';

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
  'Get-PlayWindowsFeature': GET_WINDOWS_FEATURE,
  'Install-PlayWindowsFeature': INSTALL_WINDOWS_FEATURE,
  'Get-PlayWindowsCapability': GET_WINDOWS_CAPABILITY,
  'Add-PlayWindowsCapability': ADD_WINDOWS_CAPABILITY,
  'Get-PlayDockerEngine': GET_DOCKER_ENGINE,
  'Install-PlayDockerEngine': INSTALL_DOCKER_ENGINE,
  'Get-PlayDockerImage': GET_DOCKER_IMAGE,
  'Invoke-PlayDockerPull': INVOKE_DOCKER_PULL,
  'Get-PlayFile': GET_FILE,
  'Set-PlayFile': SET_FILE,
  'Add-PlayFileChunk': ADD_FILE_CHUNK,
  'Complete-PlayUpload': COMPLETE_UPLOAD,
  'Get-PlayRegistryValue': GET_REGISTRY_VALUE,
  'Set-PlayRegistryValue': SET_REGISTRY_VALUE,
  'Get-PlayService': GET_SERVICE,
  'Set-PlayService': SET_SERVICE,
  'Set-PlayServiceState': SET_SERVICE_STATE,
  'Get-PlayNssmService': GET_NSSM_SERVICE,
  'Set-PlayNssmService': SET_NSSM_SERVICE,
  'Get-PlayHnsNetwork': GET_HNS_NETWORK,
  'New-PlayHnsNetwork': NEW_HNS_NETWORK,
  'Remove-PlayHnsNetwork': REMOVE_HNS_NETWORK,
  'Get-PlayHnsEndpoint': GET_HNS_ENDPOINT,
  'New-PlayHnsEndpoint': NEW_HNS_ENDPOINT,
  'Remove-PlayHnsEndpoint': REMOVE_HNS_ENDPOINT,
  'Set-PlayHnsEndpointHost': SET_HNS_ENDPOINT_HOST,
  'Get-PlayFirewallRule': GET_FIREWALL_RULE,
  'Set-PlayFirewallRule': SET_FIREWALL_RULE,
  'Get-PlayAutoUpdate': GET_AUTO_UPDATE,
  'Set-PlayAutoUpdate': SET_AUTO_UPDATE,
  'Get-PlayNetAdapters': GET_NET_ADAPTERS,
  'Set-PlayNetAdapter': SET_NET_ADAPTER,
  'Get-PlayDnsClient': GET_DNS_CLIENT,
  'Set-PlayDnsClient': SET_DNS_CLIENT,
  'Get-PlayNetworkCleanup': GET_NETWORK_CLEANUP,
  'Invoke-PlayNetworkCleanup': INVOKE_NETWORK_CLEANUP,
} satisfies { readonly [F in Exclude<PlayFunctionName, StepFunctionName>]: ContractFunction<F> };

export const PLAY_FUNCTIONS: { readonly [F in PlayFunctionName]: ContractFunction<F> } = Object.freeze({
  ...(mergeRemotes(STEPS) as unknown as { readonly [F in StepFunctionName]: ContractFunction<F> }),
  ...CONTRACT_FUNCTIONS,
});
