import { writeFileSync } from 'node:fs';
import { defineConfig } from 'vitest/config';
import { svelte } from '@sveltejs/vite-plugin-svelte';

// keepGitkeep restores dist/.gitkeep after each build: main.go embeds
// frontend/dist, which must exist (and be tracked) on a fresh clone.
const keepGitkeep = {
  name: 'keep-gitkeep',
  closeBundle() {
    writeFileSync('dist/.gitkeep', '');
  },
};

export default defineConfig({
  plugins: [svelte(), keepGitkeep],
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 800 },
  test: { include: ['src/**/*.test.ts'], environment: 'node' },
});
