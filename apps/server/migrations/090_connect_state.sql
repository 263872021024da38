-- A signed-in organisation connecting an accounting package (docs/integration.md, "Connecting
-- later"): its OpenID state has a purpose of its own.
alter table sso_states drop constraint sso_states_purpose_check;
alter table sso_states add constraint sso_states_purpose_check
  check (purpose in ('signIn', 'signUp', 'link', 'handoff', 'connect'));
