import { composeStories } from '@storybook/react-vite';
import { describe, it } from 'vitest';
import * as stories from '../../src/console/runtime/screens/FormScreen.stories.tsx';

describe('FormScreen stories', () => {
  for (const [name, story] of Object.entries(composeStories(stories))) {
    it(name, async () => {
      await story.run();
    });
  }
});
