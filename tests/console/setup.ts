// Console tests run the Storybook stories (their play functions) in happy-dom with the same
// project annotations as Storybook itself.
import { setProjectAnnotations } from '@storybook/react-vite';
import { afterEach } from 'vitest';
import { cleanup } from '@testing-library/react';
import * as preview from '../../.storybook/preview.tsx';
import { languages, loadLanguage } from '../../src/console/app/i18n.ts';
import { operationsReady } from '../../src/console/api/transport.ts';

setProjectAnnotations([preview]);

// Languages other than the default load on demand in the app; tests read any of them directly.
// The operation table loads with the first route in the app; tests read it directly too.
await Promise.all([...languages.map((l) => loadLanguage(l)), operationsReady()]);

// Storybook unmounts the previous story when the next one runs; removing its nodes by hand here
// would make React fail to unmount them.
afterEach(() => {
  cleanup();
});
