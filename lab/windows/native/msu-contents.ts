// What an .msu holds once `expand.exe -F:*` opened it, on the simulated node (a test double): the
// update's CAB (Windows10.0-KBnnnnnnn-x64.cab), WSUSSCAN.cab (the scan catalogue, which DISM cannot
// add), <name>-pkgProperties.txt and <name>.xml, as real packages hold them
// (docs/domain.md#hotfix-to-a-pinned-build). The update CAB's content names its catalogue entry, so
// dism.exe knows which update a CAB is wherever it was extracted to.
import type { MsuRecord } from '../node-state.js';

const CAB_MARK = 'MSCF simulated update CAB of ';

export interface ExtractedFile {
  name: string;
  content: Buffer;
}

/** The update CAB's file name in the package: Windows10.0-KB4549949-x64.cab. */
export function updateCabName(kb: string): string {
  return `Windows10.0-${kb.toUpperCase()}-x64.cab`;
}

/** The files of a package, in the order expand.exe queues them. */
export function msuContents(msu: MsuRecord): ExtractedFile[] {
  const kb = msu.kb.toUpperCase();
  const stem = `Windows10.0-${kb}-x64`;
  const number = kb.replace(/^KB/, '');
  const properties = [
    'Applies to="Security Update"',
    'Installer Engine="Component Based Servicing"',
    `KB Article Number="${number}"`,
    'Package Type="Update"',
    'Processor Architecture="amd64"',
    'Product Name="Windows 10.0"',
  ];
  const id = packageIdentity(msu);
  const xml =
    '<?xml version="1.0" encoding="UTF-8"?><unattend xmlns="urn:schemas-microsoft-com:unattend"><servicing>' +
    `<package action="install"><assemblyIdentity name="${id.name}" version="${id.version}" language="neutral" ` +
    `processorArchitecture="amd64" publicKeyToken="31bf3856ad364e35" />` +
    `<source location="%configsetroot%\\${stem}.cab" /></package></servicing></unattend>`;
  return [
    { name: 'WSUSSCAN.cab', content: Buffer.from('MSCF simulated Windows Update scan catalogue\n') },
    { name: `${stem}.cab`, content: Buffer.from(`${CAB_MARK}${msu.fileName.toLowerCase()}\n`) },
    { name: `${stem}-pkgProperties.txt`, content: Buffer.from(properties.map((l) => `${l}\r\n`).join('')) },
    { name: `${stem}.xml`, content: Buffer.from(xml) },
  ];
}

/**
 * The package identity DISM knows the update by (its .xml's assemblyIdentity): a cumulative update is
 * Package_for_RollupFix at 17763.<revision>.1.7, another one Package_for_<KB> at 10.0.1.0.
 */
export function packageIdentity(msu: MsuRecord): { name: string; version: string; identity: string } {
  const name = msu.revision === null ? `Package_for_${msu.kb.toUpperCase()}` : 'Package_for_RollupFix';
  const version = msu.revision === null ? '10.0.1.0' : `17763.${msu.revision}.1.7`;
  return { name, version, identity: `${name}~31bf3856ad364e35~amd64~~${version}` };
}

/** The catalogue key (the .msu's lower-cased file name) an update CAB came from; null: not an update CAB. */
export function cabSource(content: Buffer): string | null {
  const text = content.toString('utf8');
  return text.startsWith(CAB_MARK) ? text.slice(CAB_MARK.length).trim() : null;
}
