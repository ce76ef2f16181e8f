// Every story's play function runs as a test (Storybook portable stories in happy-dom).
import { composeStories } from '@storybook/react-vite';
import { describe, it } from 'vitest';

const modules = import.meta.glob<Record<string, unknown>>('../../src/console/**/*.stories.tsx', { eager: true });

for (const [path, module] of Object.entries(modules)) {
  if (path.endsWith('FormScreen.stories.tsx')) continue; // tests/console/form-screen.test.tsx
  describe(path.replace(/^.*src\/console\//, ''), () => {
    const composed = composeStories(module as Parameters<typeof composeStories>[0]) as Record<string, { run: () => Promise<void> }>;
    for (const [name, story] of Object.entries(composed)) {
      it(name, async () => {
        await story.run();
      });
    }
  });
}
