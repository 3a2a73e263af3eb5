// A Docker image reference as `docker pull` accepts it, pinned (a tag or a digest), checked piece
// by piece so that the refusal says which piece is wrong.
import { nonEmpty } from '../../../runner/core/step-options.js';
import { checked, quoted, type Refuse } from './checked.js';

// distribution/reference's grammar (what `docker pull` accepts), piece by piece for clear errors.
const PATH_COMPONENT = /^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*$/;
const DOMAIN =
  /^(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])(?:\.(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9]))*(?::([0-9]{1,5}))?$/;
const TAG = /^[\w][\w.-]{0,127}$/;
const DIGEST = /^sha256:[a-f0-9]{64}$/;

/** Checks a reference (`[host[:port]/]path[:tag][@sha256:<hex>]`), refusing it with what is wrong. */
function checkReference(ref: string, refuse: Refuse): string {
  const shown = quoted(ref, 80);
  const bad = (why: string): never => refuse(`${why}, got ${shown}`);
  if (/[\s"'`\u0000-\u001f]/.test(ref)) bad('must be an image reference without spaces, quotes or control characters');
  const [rest, digest, ...more] = ref.split('@');
  if (more.length || (digest !== undefined && !DIGEST.test(digest)))
    bad('must end in at most one digest, @sha256:<64 lowercase hex digits>');
  const slash = rest!.lastIndexOf('/'),
    colon = rest!.lastIndexOf(':');
  const tag = colon > slash ? rest!.slice(colon + 1) : undefined;
  const name = tag === undefined ? rest! : rest!.slice(0, colon);
  if (tag !== undefined && !TAG.test(tag))
    bad('has a tag that is not 1-128 letters, digits, _ . - (not starting with . or -)');
  if (name.length > 255) bad('has a repository name longer than 255 characters');
  const parts = name.split('/');
  // Like docker: the first part is a registry host when it has a dot or a port, or is localhost.
  if (parts.length > 1 && (/[.:]/.test(parts[0]!) || parts[0] === 'localhost')) {
    const host = DOMAIN.exec(parts.shift()!);
    if (!host || (host[1] !== undefined && (Number(host[1]) < 1 || Number(host[1]) > 65535)))
      bad('has a registry that is not host[:port]');
  }
  for (const p of parts) {
    if (PATH_COMPONENT.test(p)) continue;
    bad(
      PATH_COMPONENT.test(p.toLowerCase())
        ? 'must have a lowercase repository path'
        : 'has a repository path part that is not lowercase letters and digits joined by . _ __ or -',
    );
  }
  // Without a tag docker pulls :latest, which moves: a node must get the image the cluster was built for.
  if (tag === undefined && digest === undefined)
    bad(
      'needs an explicit tag (such as :10.0.17763.973) or @sha256 digest: without one docker pulls :latest, which is not pinned',
    );
  return ref;
}

/** An image reference (`[host[:port]/]path[:tag][@sha256:<hex>]`), kept as written. */
export const imageReference = () => checked(nonEmpty(), checkReference);
