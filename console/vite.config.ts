import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

// `npm run build` writes the console into dist/console, which Acacia serves at /console.
// `npx vite console` serves it for development against an Acacia on port 8080.
export default defineConfig({
  root: here('.'),
  base: '/console/',
  plugins: [react()],
  build: { outDir: here('../dist/console'), emptyOutDir: true, target: 'es2022', assetsInlineLimit: 0 },
  server: { proxy: { '/controller': 'http://127.0.0.1:8080' } },
});
