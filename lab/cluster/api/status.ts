// The API double's error answers (lab/cluster/api/, a TEST DOUBLE): metav1.Status bodies as kube-apiserver
// writes them (k8s.io/apimachinery/pkg/api/errors: NewNotFound, NewConflict, NewAlreadyExists,
// NewTooManyRequests, NewUnauthorized, NewMethodNotSupported, NewBadRequest, NewInvalid), so the real
// kubectl prints its own messages from them ("Error from server (NotFound): nodes "x" not found").

/** A resource as errors name it: `nodes`, `poddisruptionbudgets` in `policy`. */
export interface Qualified {
  group: string;
  resource: string;
}

export interface Reply {
  code: number;
  body: unknown;
}

const qualified = (q: Qualified) => (q.group ? `${q.resource}.${q.group}` : q.resource);

function failure(code: number, reason: string | undefined, message: string, details?: object): Reply {
  return {
    code,
    body: {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message,
      ...(reason ? { reason } : {}),
      ...(details ? { details } : {}),
      code,
    },
  };
}

const detailsOf = (q: Qualified, name: string) => ({ name, ...(q.group ? { group: q.group } : {}), kind: q.resource });

export const notFound = (q: Qualified, name: string): Reply =>
  failure(404, 'NotFound', `${qualified(q)} "${name}" not found`, detailsOf(q, name));

/** A path the double does not serve (an unknown resource of a known group, say). */
export const noSuchResource = (): Reply =>
  failure(404, 'NotFound', 'the server could not find the requested resource', {});

const MODIFIED = 'the object has been modified; please apply your changes to the latest version and try again';

export const conflict = (q: Qualified, name: string, why = MODIFIED): Reply =>
  failure(409, 'Conflict', `Operation cannot be fulfilled on ${qualified(q)} "${name}": ${why}`, detailsOf(q, name));

export const alreadyExists = (q: Qualified, name: string): Reply =>
  failure(409, 'AlreadyExists', `${qualified(q)} "${name}" already exists`, detailsOf(q, name));

/** The eviction API's refusal: no Retry-After (kubectl waits its own 5 s), the budget named as a cause. */
export const tooManyRequests = (message: string, cause: string): Reply =>
  failure(429, 'TooManyRequests', message, { causes: [{ reason: 'DisruptionBudget', message: cause }] });

export const unauthorized = (): Reply => failure(401, 'Unauthorized', 'Unauthorized');

export const methodNotAllowed = (): Reply =>
  failure(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource', {});

export const unsupportedMediaType = (accepted: readonly string[]): Reply =>
  failure(
    415,
    'UnsupportedMediaType',
    `the body of the request was in an unknown format - accepted media types include: ${accepted.join(', ')}`,
  );

export const badRequest = (message: string): Reply => failure(400, 'BadRequest', message);

/** 422 (NewInvalid): `kind` as errors name it (`Node`, `Lease.coordination.k8s.io`), one field's error. */
export const invalid = (kind: string, name: string, field: string, detail: string): Reply =>
  failure(422, 'Invalid', `${kind} "${name}" is invalid: ${field}: ${detail}`, {
    name,
    ...(kind.includes('.') ? { group: kind.slice(kind.indexOf('.') + 1) } : {}),
    kind: kind.split('.')[0],
    causes: [{ reason: 'FieldValueInvalid', message: detail, field }],
  });

export const internalError = (message: string): Reply =>
  failure(500, 'InternalError', `Internal error occurred: ${message}`);

export const serviceUnavailable = (message: string): Reply => failure(503, 'ServiceUnavailable', message);

export const tooLarge = (): Reply => failure(413, 'RequestEntityTooLarge', 'the request body is too large');

/** A Status with no reason (kube-apiserver's answer for a pod under several budgets is one). */
export const bare = (code: number, message: string): Reply => failure(code, undefined, message);

export const success = (code: number, details?: object): Reply => ({
  code,
  body: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', ...(details ? { details } : {}), code },
});
