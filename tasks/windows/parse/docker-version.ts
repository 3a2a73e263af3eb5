// Reads the text `docker version` prints (docs/field-notes.md#d-docker-install-and-docker-version shows it for Docker EE 19.03):
//
//   Client: Docker Engine - Enterprise
//    Version:           19.03.0
//    API version:       1.40
//    ...
//
//   Server: Docker Engine - Enterprise
//    Engine:
//     Version:          19.03.0
//     API version:      1.40 (minimum version 1.24)
//
// A section starts at column 0 (`Client:`, `Server:`); the server's components (`Engine:`,
// `containerd:`, ...) are indented one space and their fields two. When the daemon does not
// answer, the client section is followed by an error line (`error during connect: ...`, field note D)
// and there is no server section. CRLF line ends are accepted. Pure.

export interface DockerVersion {
  /** The product after `Client:`, e.g. `Docker Engine - Enterprise` ('' when not given). */
  readonly clientProduct: string;
  readonly client: Readonly<Record<string, string>>;
  readonly serverProduct: string | null;
  /** Server components by name (`Engine`), each with its fields; null without a server section. */
  readonly server: Readonly<Record<string, Readonly<Record<string, string>>>> | null;
  /** Lines that are not part of a section, e.g. the error when the daemon is not running. */
  readonly errors: readonly string[];
}

export function parseDockerVersion(text: string): DockerVersion {
  const client: Record<string, string> = {};
  let clientProduct: string | null = null;
  let serverProduct: string | null = null;
  let server: Record<string, Record<string, string>> | null = null;
  let section: 'client' | 'server' | null = null;
  let component: Record<string, string> | null = null;
  const errors: string[] = [];

  for (const raw of text.split('\n')) {
    const line = raw.replace(/\r$/, '').replace(/\s+$/, '');
    if (line === '') continue;
    const top = /^(Client|Server)(?::\s*(.*))?$/.exec(line);
    if (top) {
      section = top[1] === 'Client' ? 'client' : 'server';
      component = null;
      if (section === 'client') clientProduct = top[2] ?? '';
      else {
        serverProduct = top[2] ?? '';
        server = {};
      }
      continue;
    }
    const field = /^( +)([^:]+?):(?:\s+(.*))?$/.exec(line);
    if (!field || section === null) {
      errors.push(line);
      section = null;
      continue;
    }
    const [, indent, key, value] = field as unknown as [string, string, string, string | undefined];
    if (section === 'client') {
      client[key] = value ?? '';
    } else if (indent.length === 1 && value === undefined) {
      component = {};
      server![key] = component;
    } else if (component) {
      component[key] = value ?? '';
    } else {
      // A server field outside any component (older daemons print Version directly under Server:).
      component = {};
      server!.Engine = component;
      component[key] = value ?? '';
    }
  }
  if (clientProduct === null && server === null) {
    throw new Error(`not the output of docker version: ${JSON.stringify(text.slice(0, 200))}`);
  }
  return { clientProduct: clientProduct ?? '', client, serverProduct, server, errors };
}

/** The engine's version (the daemon's), or null when it did not answer. */
export function engineVersion(v: DockerVersion): string | null {
  return v.server?.Engine?.Version ?? null;
}
