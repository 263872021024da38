import { toString as qrToSvg } from "qrcode";
import { useEffect, useState } from "react";

/** The enrolment QR code for an authenticator app (docs/behaviour.md#login: low error correction). */
export function TotpQrCode({ uri, secret }: { uri: string; secret?: string }) {
  const [svg, setSvg] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    qrToSvg(uri, { type: "svg", errorCorrectionLevel: "L", margin: 1 }).then((markup) => {
      if (live) setSvg(markup);
    });
    return () => {
      live = false;
    };
  }, [uri]);
  return (
    <figure className="totp-qr">
      {svg ? (
        <img
          src={`data:image/svg+xml;utf8,${encodeURIComponent(svg)}`}
          alt="QR code for your authenticator app"
        />
      ) : null}
      {secret && (
        <figcaption>
          Or enter this key: <code>{secret.replace(/(.{4})/g, "$1 ").trim()}</code>
        </figcaption>
      )}
    </figure>
  );
}
