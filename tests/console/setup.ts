// Console tests run the Storybook stories (their play functions) in happy-dom with the same
// project annotations as Storybook itself.
import { setProjectAnnotations } from '@storybook/react-vite';
import { afterEach } from 'vitest';
import { cleanup } from '@testing-library/react';
import * as preview from '../../.storybook/preview.tsx';

setProjectAnnotations([preview]);

// Storybook unmounts the previous story when the next one runs; removing its nodes by hand here
// would make React fail to unmount them.
afterEach(() => {
  cleanup();
});
