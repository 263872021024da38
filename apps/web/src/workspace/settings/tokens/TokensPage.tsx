import { PageFrame } from "../../../pages/PageFrame";
import { TokenManager } from "./TokenManager";

/** `/variance/settings/token`: every API token of the organisation (for admins), and new ones. */
export function TokensPage() {
  return (
    <PageFrame title="API Tokens">
      <TokenManager scope="organisation" />
    </PageFrame>
  );
}
