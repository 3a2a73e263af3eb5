// OpenSSH to a lab host as the bench runs it: the lab's key and known_hosts, host keys checked, no prompt.
export function labSsh(lab: { keyPath: string; knownHostsPath: string }, address: string, cmd: string): string[] {
  return [
    'ssh',
    '-i',
    lab.keyPath,
    '-o',
    `UserKnownHostsFile=${lab.knownHostsPath}`,
    '-o',
    'StrictHostKeyChecking=yes',
    '-o',
    'BatchMode=yes',
    `root@${address}`,
    cmd,
  ];
}
