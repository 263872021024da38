import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { BrowserRouter } from "react-router";
import { App } from "./shell/App";
import { StartupContext } from "./shell/startup-context";
import "./styles.css";

const demoMode = document.querySelector('meta[name="varia-demo-mode"]')?.getAttribute("content") === "true";

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <BrowserRouter>
      <StartupContext.Provider options={{ input: { demoMode } }}>
        <App />
      </StartupContext.Provider>
    </BrowserRouter>
  </StrictMode>,
);
