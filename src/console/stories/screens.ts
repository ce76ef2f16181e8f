// The compiled screens the runtime's stories render: the generator's output for
// tests/fixtures/console-screens/*.yaml (checked by tests/generators/console-fixtures.test.ts).
// Handed to the runtime so screens that name each other (a list's form, a detail's nested list)
// find them.
import { provideScreens, type ScreenDef } from '../runtime/screen-types.ts';
import compiled from './screens.fixture.json';

export const fx = compiled as unknown as Record<string, ScreenDef>;
provideScreens(fx);

/** The args that render fixture screen `screenId` (its compiled definition found by its id) under menu entry `menuKey`. */
export const fxArgs = (screenId: string, menuKey: string | null) => ({ screenId, menuKey, screen: fx[screenId] });
