// PackageManagement and PowerShellGet on the simulated node (mock/Packages.psm1): the NuGet provider
// and PSGallery modules the node has, known by their files where Windows keeps them, so a program
// sees them as installed exactly when the files are there. PSGallery holds DockerMsftProvider
// (docs/field-notes.md#d-docker-install-and-docker-version); nothing else is modelled.
import { fileExists, writeFile } from '../file-store.js';
import type { NodeState } from '../node-state.js';
import { type Ops, str, WindowsError } from './types.js';

const NUGET_VERSION = '2.8.5.208';
const NUGET_DLL = `C:\\Program Files\\PackageManagement\\ProviderAssemblies\\nuget\\${NUGET_VERSION}\\Microsoft.PackageManagement.NuGetProvider.dll`;

/** What PSGallery offers the node: module name -> version. */
const GALLERY: Record<string, { name: string; version: string }> = {
  dockermsftprovider: { name: 'DockerMsftProvider', version: '1.0.0.8' },
};

const moduleBase = (m: { name: string; version: string }) =>
  `C:\\Program Files\\WindowsPowerShell\\Modules\\${m.name}\\${m.version}`;
const manifestOf = (m: { name: string; version: string }) => `${moduleBase(m)}\\${m.name}.psd1`;

/** The providers PackageManagement 1.0.0.1 ships with Windows Server 2019. */
const BUILT_IN = [
  { name: 'msi', version: '3.0.0.0' },
  { name: 'msu', version: '3.0.0.0' },
  { name: 'PowerShellGet', version: '1.0.0.1' },
  { name: 'Programs', version: '3.0.0.0' },
];

export function nugetInstalled(s: NodeState): boolean {
  return fileExists(s, NUGET_DLL);
}

export function moduleInstalled(s: NodeState, name: string): boolean {
  const m = GALLERY[name.toLowerCase()];
  return m !== undefined && fileExists(s, manifestOf(m));
}

function installNuget(s: NodeState): void {
  writeFile(s, NUGET_DLL, Buffer.from(`simulated NuGet provider ${NUGET_VERSION}\n`));
}

export const packageOps: Ops = {
  'Packages.Providers': (node) => {
    const s = node.state;
    const list = [...BUILT_IN];
    if (nugetInstalled(s)) list.push({ name: 'NuGet', version: NUGET_VERSION });
    if (moduleInstalled(s, 'DockerMsftProvider')) list.push({ name: 'DockerMsftProvider', version: '1.0.0.8' });
    return list;
  },

  'Packages.InstallProvider': (node, a) => {
    const name = str(a, 'name');
    if (name.toLowerCase() !== 'nuget')
      throw new WindowsError(
        `No match was found for the specified search criteria for the provider '${name}'. The package provider requires 'PackageManagement' and 'Provider' tags. Please check if the specified package has the tags.`,
      );
    installNuget(node.state);
    return {
      name: 'nuget',
      version: NUGET_VERSION,
      source: `https://onegetcdn.azureedge.net/providers/Microsoft.PackageManagement.NuGetProvider-${NUGET_VERSION}.dll`,
      summary: 'NuGet provider for the OneGet meta-package manager',
    };
  },

  'Packages.Modules': (node) =>
    Object.values(GALLERY)
      .filter((m) => moduleInstalled(node.state, m.name))
      .map((m) => ({ name: m.name, version: m.version, path: manifestOf(m), moduleBase: moduleBase(m) })),

  /** Install-Module -Repository PSGallery -Force: -Force also bootstraps the NuGet provider it needs. */
  'Packages.InstallModule': (node, a) => {
    const s = node.state;
    const name = str(a, 'name');
    const m = GALLERY[name.toLowerCase()];
    if (!m)
      throw new WindowsError(
        `No match was found for the specified search criteria and module name '${name}'. Try Get-PSRepository to see all available registered module repositories.`,
      );
    if (!nugetInstalled(s)) installNuget(s);
    writeFile(s, manifestOf(m), Buffer.from(`@{ ModuleVersion = '${m.version}'; RootModule = '${m.name}.psm1' }\r\n`));
    writeFile(s, `${moduleBase(m)}\\${m.name}.psm1`, Buffer.from(`# simulated ${m.name} ${m.version}\r\n`));
    return { name: m.name, version: m.version };
  },
};
