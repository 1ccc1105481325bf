// Builds the web table into dist/, which the bot's web server serves as it is.
// Relative asset paths: the same files load at / outside Discord and under /.proxy/ inside it.
// Two pages: index.html (the table) and sdk-mock.html (the same start-up with the Embedded App
// SDK's own mock in place of Discord's client, for tests outside Discord).
import { defineConfig } from "vite";

export default defineConfig({
  base: "./",
  build: {
    outDir: "dist",
    emptyOutDir: true,
    target: "es2022",
    // No inline scripts or data: URLs: the server's CSP allows its own files only.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    rollupOptions: {
      input: {
        main: "index.html",
        mock: "sdk-mock.html",
      },
    },
  },
});
