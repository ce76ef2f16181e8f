// The product's own screens (config/screens/*.yaml, compiled into screens.gen.ts) as the runtime's
// stories render them.
import { screens } from '../../generated/screens.gen.ts';
import type { ScreenDef } from '../runtime/screen-types.ts';

export const screenDef = (id: keyof typeof screens) => screens[id] as unknown as ScreenDef;

/** The args that render product screen `screenId` under menu entry `menuKey`. */
export const screenArgs = (screenId: keyof typeof screens, menuKey: string | null) => ({ screenId, menuKey, screen: screenDef(screenId) });
