// After a write, the reads it may have changed are fetched again when next shown: a form that
// saves and goes back to a list (an association changed, then the member's associations tab) must
// not show the list as it was, even within SWR's deduping window. A read is affected when its path
// and the write's are one inside the other, segment by segment (PUT …/Associations/{associationId}
// and GET …/Associations; POST /v1/account and GET /v1/account/page).
import { operationById } from '../api/transport.ts';

const segments = (path: string) => path.split('/').filter(Boolean).map((s) => (s.startsWith('{') ? '{}' : s));

function nested(a: string[], b: string[]): boolean {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i] && a[i] !== '{}' && b[i] !== '{}') return false;
  return true;
}

/** The SWR keys ([operation, args]) of the reads a write to `writeId` may have changed. */
export function readsAffectedBy(writeId: string): (key: unknown) => boolean {
  const write = operationById(writeId);
  if (!write || write.method === 'GET') return () => false;
  const at = segments(write.path);
  return (key) => {
    if (!Array.isArray(key) || typeof key[0] !== 'string') return false;
    const read = operationById(key[0]);
    return !!read && read.method === 'GET' && nested(segments(read.path), at);
  };
}
