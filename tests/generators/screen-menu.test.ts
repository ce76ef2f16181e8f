// A screen may bring its own menu entry (screen.menu): it hangs under its parent, takes the
// parent's component id and narrows the roles; a bad parent, key or path names the file.
import { describe, it, expect } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildModel } from '../../generators/model.ts';
import { miniProject } from './mini-project.ts';

const screen = (menu: string) => `id: extra\nkind: form\ntitle: screens.newThing.title\noperation: things.create\nfields: [name]\nonSuccess: { effect: stay }\nmenu: ${menu}\n`;

function modelWith(menu: string) {
  const dir = miniProject();
  writeFileSync(join(dir, 'config/screens/extra.yaml'), screen(menu));
  return buildModel(dir);
}

describe('screen.menu', () => {
  it('adds a node under its parent with the parent component', () => {
    const model = modelWith('{ parent: things, key: things.extra, path: /Things/Extra, roles: [admin] }');
    const node = model.menu.find((n) => n.key === 'things.extra')!;
    expect(node).toMatchObject({ parentKey: 'things', componentId: 10, roles: ['admin'], screen: 'extra', label: 'menu.things.extra' });
    expect(model.menu.map((n) => n.key)).toEqual(['things', 'things.extra']);
  });
  it.each([
    ['{ parent: nope, key: a.b, path: /A/B }', /config\/screens\/extra\.yaml \/menu\/parent: menu node "nope"/],
    ['{ parent: things, key: things, path: /Things/X }', /\/menu\/key: menu key things is used already/],
    ['{ parent: things, key: things.x, path: /Things }', /\/menu\/path: menu path \/Things is used already/],
  ])('%s is refused', (menu, want) => {
    expect(() => modelWith(menu)).toThrow(want);
  });
});
