import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

export default defineConfig({
  plugins: [react()],
  // A dependency of Plotly (has-hover) reads browserify's `global`.
  define: { global: "globalThis" },
  resolve: {
    alias: [
      // Plotly's registry requires the map library's CSS for map traces; the chart bundle has none.
      {
        find: /^maplibre-gl\/dist\/maplibre-gl\.css$/,
        replacement: fileURLToPath(new URL("./src/ui/charts/no-map.ts", import.meta.url)),
      },
    ],
  },
  build: { outDir: "dist", emptyOutDir: true, sourcemap: true, chunkSizeWarningLimit: 1200 },
  server: { port: 5173, proxy: { "/api": "http://localhost:8080" } },
});
