// The component headers the console sends with every request (spec 7: X-Component-Id, -Name,
// -Action), cleaned for the audit log. They are the caller's claim, never used to authorise, so
// anything odd is recorded as null rather than refused: an id must be a positive integer, a name
// short plain text, an action a word.
import type { ComponentHeaders } from '../context.ts';

export interface CleanComponent { id: number | null; name: string | null; action: string | null }

const NAME_MAX = 80;
const ID = /^[1-9]\d{0,8}$/;
const ACTION = /^[A-Za-z]{1,20}$/;
// Letters, digits, spaces and a little punctuation: no markup, no control characters.
const NAME = /^[\p{L}\p{N} _.\-/()]+$/u;

export function cleanComponent(raw: ComponentHeaders | null | undefined): CleanComponent {
  const id = raw?.id?.trim();
  const name = raw?.name?.trim();
  const action = raw?.action?.trim();
  return {
    id: id && ID.test(id) ? Number(id) : null,
    name: name && name.length <= NAME_MAX && NAME.test(name) ? name : null,
    action: action && ACTION.test(action) ? action : null,
  };
}
