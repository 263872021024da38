import { errorText } from "@varia/api-client";
import { type AccountingPackage, accountingPackages, connectorAuthorisationUrl } from "@varia/contracts";
import { useState } from "react";
import { api } from "../api";
import { packageNames } from "./ScheduleFields";

/**
 * Connect QuickBooks and Connect Xero (docs/integration.md, "Connecting later"): each asks for the
 * provider's sign-in address and sends the browser there; the provider's answer comes back to the
 * integration overview. A refusal (the server has no settings for the provider) goes to `onError`.
 */
export function ConnectButtons({ onError }: { onError: (message: string | null) => void }) {
  const [connecting, setConnecting] = useState<AccountingPackage | null>(null);
  const connect = async (integrationType: AccountingPackage) => {
    setConnecting(integrationType);
    onError(null);
    try {
      const { url } = await api.call(connectorAuthorisationUrl, { params: { integrationType }, query: {} });
      window.location.assign(url);
    } catch (e) {
      onError(errorText(e));
      setConnecting(null);
    }
  };
  return (
    <div className="data-source__actions">
      {accountingPackages.map((p) => (
        <button
          key={p}
          type="button"
          className="button button--secondary"
          disabled={connecting !== null}
          onClick={() => connect(p)}
        >
          {connecting === p ? <span className="spinner spinner--dark" aria-hidden="true" /> : null}
          Connect {packageNames[p]}
        </button>
      ))}
    </div>
  );
}
