-- Single sign-up ends on the app host; the new organisation's site takes over the sign-in with a
-- one-time handoff (an sso_states row of purpose 'handoff').
alter table sso_states drop constraint if exists sso_states_purpose_check;
alter table sso_states add constraint sso_states_purpose_check
  check (purpose in ('signIn', 'signUp', 'link', 'handoff'));
