"""The tests of DATE_MODULES (tests/conftest.py) measured to read neither the wall clock nor
the local time zone: the moved-clock runs of .ci/run (``-m dates``, which move TZ too) leave
them out, since such a test gives the same result under every moved clock and zone.

Measured, not guessed, with tests/clockreads (see its README), in two runs of the 1,068
tests of ``-m dates`` (2026-12-07, main b2dc9f9; both gave this same list): every call of
``clock_gettime(CLOCK_REALTIME)``, ``gettimeofday``, ``time``, ``ftime`` and
``timespec_get``, and apart every use of the local zone (``localtime``, ``localtime_r``,
``mktime``, ``timelocal``: a naive ``timestamp()``, an ``astimezone()``), in the test
process and in every process it starts (the CLI, the web server, pdfsig, the render
workers), per test (setup, call, teardown) and per module- or session-scoped fixture. A
test function is listed here only if none of its parametrizations did either in any phase
and none of the wider fixtures it uses did when set up. That covers Python
(``datetime.now``, ``date.today``, ``time.time``, a signing time, a certificate's validity),
SQLite's CURRENT_TIMESTAMP, libraries' C code (OpenSSL) and hypothesis' own reads (its
property tests stay). Not counted: the PostgreSQL server, which .ci/run starts outside the
moved clock (its ``now()`` is the real one in every run, so it moves nothing between
runs), and file times, which the code only compares with each other (cache keys), never
with the clock. Reads while a module is imported were reviewed by hand: logging's start
time, dateutil's parser year (lavra parses no date with dateutil), aiohttp and
fontconfig; none reaches a result, and no module of lavra or of the tests reads the clock
at import.

A function not listed here, in a module of DATE_MODULES, runs again under every moved
clock: a new test is rerun until measured otherwise (the safe default). A listed test
that comes to read the clock or the zone must leave the list: measure again after
changing one.
"""

from __future__ import annotations

CLOCK_FREE: dict[str, frozenset[str]] = {
    "test_amounts": frozenset({
        "test_cli_errors", "test_cli_escolar_sanction", "test_cli_fee_json",
        "test_cli_fretamento_example_and_repeat",
        "test_cli_fretamento_without_corrected_value_exits_2", "test_cli_help_is_portuguese",
        "test_cli_on_accepts_the_brazilian_date_form", "test_cli_text_output",
        "test_datetime_is_not_a_date", "test_escolar_fee", "test_escolar_fine",
        "test_every_example_entry_says_it_is_an_example",
        "test_example_table_fills_only_missing_years",
        "test_example_table_is_not_loaded_unless_asked",
        "test_example_table_that_does_not_say_so_is_refused", "test_fee_before_the_law",
        "test_fee_in_figures_and_words", "test_fee_refuses_other_citations",
        "test_fee_without_ufesp_names_the_year", "test_fretamento_corrected_value_registered",
        "test_fretamento_fine_before_the_law", "test_fretamento_fine_refuses_other_citations",
        "test_fretamento_fine_without_corrected_value", "test_fretamento_original_fine",
        "test_rounding_is_half_up_like_the_printed_figure",
        "test_ufesp_table_has_each_exercise_with_its_source",
    }),
    "test_auto_infracao": frozenset({
        "test_art18_doubling_is_stated_even_while_the_value_is_pending",
        "test_art18_repeat_doubles_the_fine",
        "test_art20_each_infraction_has_its_own_fine_and_the_total",
        "test_art21_temporary_impediment",
        "test_art23_last_day_to_appeal_on_the_municipal_calendar",
        "test_ciencia_before_the_infraction_is_invalid",
        "test_computation_is_registered_under_its_metadata_name",
        "test_demo_brings_every_date_of_the_example_to_today",
        "test_incomplete_data_leaves_values_pending_without_raising",
        "test_infraction_after_the_issue_date_is_invalid",
        "test_infraction_enum_is_every_inciso_of_arts_15_to_17_with_labels_from_the_law",
        "test_issue_after_the_appeal_period_is_invalid",
        "test_legal_basis_cites_arts_18_20_21_only_when_they_apply",
        "test_legal_basis_lists_the_provisions_applied",
        "test_missing_corrected_value_is_a_missing_item_naming_it",
        "test_original_value_of_the_law_in_its_first_weeks",
        "test_registered_values_are_not_marked_as_example",
        "test_same_infraction_twice_in_one_auto_is_invalid",
        "test_single_infraction_with_example_values",
        "test_without_history_no_earlier_auto_is_assumed",
    }),
    "test_cli": frozenset({
        "test_an_error_names_its_field_by_the_form_label_or_its_option",
        "test_check_unusable_input_exits_two_without_traceback",
        "test_draft_failure_leaves_no_file", "test_help_and_usage_errors_are_in_portuguese",
        "test_numbers_json_cannot_hold_are_refused", "test_read_rejects_garbage",
        "test_unknown_form_and_missing_file_exit_two",
    }),
    "test_deadlines": frozenset({
        "test_count_back_reason", "test_count_back_table", "test_count_table",
        "test_decreed_ponto_facultativo_moves_only_when_the_file_says_so",
        "test_hours_count_on_the_wall_clock",
        "test_hours_ending_on_a_holiday_move_to_the_next_business_day",
        "test_hours_from_an_aware_start_are_read_in_the_calendar_zone",
        "test_invalid_periods_are_input_errors", "test_plural_wording",
        "test_reason_names_the_holiday_and_the_month_end_rule",
        "test_reason_wording_matches_the_secretariat_style",
        "test_timeliness_of_a_renewal_filed_in_advance", "test_timeliness_of_an_appeal",
        "test_without_moving_the_last_day_stays_put", "test_wrong_inputs_are_input_errors",
    }),
    "test_eligibility": frozenset({
        "test_auxiliary_explanation_names_the_exemptions",
        "test_bad_role_and_future_transfer_are_input_errors", "test_base_candidate_is_eligible",
        "test_candidate_from_json", "test_candidate_from_json_errors", "test_candidate_roles",
        "test_candidate_titular", "test_cnh_categories_match_the_shared_schema",
        "test_form_check_applies_the_same_rule_and_message",
        "test_form_check_reports_a_limit_not_in_force",
        "test_ineligible_explanation_lists_every_failure",
        "test_substitute_explanation_lists_three_exemptions",
        "test_the_rules_and_the_deadline_table_count_the_carencia_alike", "test_vehicle_age",
        "test_vehicle_age_bad_inputs", "test_vehicle_age_by_parameter_name",
        "test_vehicle_age_rationale_is_stated_right",
        "test_vehicle_age_years_counts_the_calendar_year_only",
    }),
    "test_forms": frozenset({
        "test_unknown_form_is_named",
    }),
    "test_forms_atos": frozenset({
        "test_appeal_decisions", "test_decision_dated_after_its_issue_is_invalid", "test_edital",
        "test_edital_late_publication_says_when_it_should_have_been",
        "test_edital_refuses_the_example_scoring_table", "test_escolar_appeal_notice",
        "test_escolar_attested_history_names_who_and_when",
        "test_escolar_infraction_after_revocation_has_no_sanction",
        "test_escolar_prior_dated_after_the_infraction_is_invalid",
        "test_escolar_same_infraction_twice_in_one_auto_is_invalid",
        "test_escolar_sanction_and_title",
        "test_escolar_without_attested_history_the_sanction_is_missing",
        "test_examples_describe_the_same_driver_and_vehicle",
        "test_reconsideration_after_the_appeal_was_decided_is_barred",
        "test_reconsideration_of_a_fretamento_auto_of_a_company_is_refused",
        "test_reconsideration_says_the_appeal_has_expired",
        "test_the_forms_name_computations_of_this_module",
    }),
    "test_forms_escolar": frozenset({
        "test_age_counts_on_the_21st_birthday_itself",
        "test_alvara_requirement_is_reported_with_its_article",
        "test_alvara_runs_to_the_end_of_the_exercise_with_the_first_fee",
        "test_attested_checks_are_met_with_who_and_when",
        "test_every_example_is_complete_on_its_own_date",
        "test_fee_without_the_ufesp_of_the_year_blocks_the_alvara",
        "test_first_alvara_needs_a_final_selection_and_the_fee_paid",
        "test_infractions_older_than_12_months_do_not_count",
        "test_inscricao_requirement_is_reported_with_its_article",
        "test_late_renewal_requerimento_states_the_consequence",
        "test_late_renewal_says_the_licence_was_cassada",
        "test_renewal_does_not_ask_for_the_selection",
        "test_renewal_issued_in_december_covers_the_next_exercise",
        "test_renewal_taxes_are_asked_only_when_they_exist",
        "test_renovacao_requirement_is_reported_with_its_article",
        "test_the_computations_are_found_by_name", "test_titular_still_needs_the_edital",
        "test_validity_is_the_earlier_of_the_cap_and_the_end_of_the_exercise",
    }),
    "test_forms_fretamento_atos": frozenset({
        "test_cassation_bar_of_twelve_months",
        "test_cassation_example_is_complete_and_lists_hypotheses",
        "test_cassation_refuses_what_the_law_does_not_allow", "test_coverage_lists_this_module",
        "test_term_art21_hypotheses", "test_term_refuses_what_the_law_does_not_allow",
        "test_the_forms_name_computations_of_this_module",
    }),
    "test_forms_licencas": frozenset({
        "test_especial_lasts_while_origin_alvara_and_state_authorisation",
        "test_especial_requirement_is_reported_with_its_article",
        "test_every_example_is_complete_on_its_own_date",
        "test_health_licence_lasts_while_the_leave_within_the_alvara",
        "test_prorrogacao_checks_the_licence_it_extends_in_the_registry",
        "test_prorrogacao_counts_20_more_days_from_the_previous_end",
        "test_publicidade_requirement_is_reported_with_its_article",
        "test_substitute_driver_case_is_complete",
        "test_substitute_is_exempt_from_vehicle_inspection_and_edital",
        "test_substitution_for_other_reasons_is_no_licence",
        "test_temporaria_may_not_be_post_dated",
        "test_temporaria_requirement_is_reported_with_its_article",
        "test_the_computations_are_found_by_name",
        "test_troca_requirement_is_reported_with_its_article",
        "test_vehicle_licence_issued_on_05_12_ends_on_24_12_not_25_12",
        "test_vehicle_licence_lasts_20_days_from_issue",
        "test_vehicle_of_2016_is_within_the_limit_through_2026",
    }),
    "test_hostile_input": frozenset({
        "test_clean_text_names_an_option",
        "test_cli_check_refuses_a_data_file_with_a_bidi_override",
        "test_cli_refuses_a_data_file_with_a_repeated_key",
        "test_cli_text_options_are_refused_before_anything_is_done",
        "test_decomposed_accents_are_stored_composed",
        "test_every_pack_example_is_drawable_and_portuguese_is_covered",
        "test_hidden_characters_are_refused_naming_field_code_and_name",
        "test_hidden_characters_in_keys_and_lists_are_refused",
        "test_prefill_refuses_what_its_field_font_cannot_draw",
        "test_repeated_keys_are_refused_naming_the_pointer", "test_tabs_and_line_breaks_are_kept",
        "test_the_coverage_is_cheap_once_per_pack",
    }),
    "test_ranking": frozenset({
        "test_bad_answers", "test_duplicate_protocol_and_mixed_time_zones",
        "test_latest_figure_is_the_last_published", "test_licence_cap",
        "test_negative_active_licences", "test_no_figure_published_yet",
        "test_official_table_is_preferred", "test_points", "test_population_file_errors",
        "test_population_without_value_blocks_the_cap",
        "test_ranking_by_points_then_age_then_protocol",
        "test_same_birth_and_time_falls_to_protocol_number", "test_scoring_table_errors",
        "test_shipped_population_file", "test_shipped_table_is_an_example_and_says_so",
        "test_unconfirmed_population_is_pending",
    }),
    "test_render": frozenset({
        "test_renderer_needs_its_base_files",
    }),
    "test_signing": frozenset({
        "test_dev_pki_rejects_bad_role_ids",
        "test_production_passphrase_comes_from_the_environment",
    }),
    "test_staff_values": frozenset({
        "test_a_decreed_ponto_facultativo_moves_a_deadline_and_is_named_with_its_decree",
        "test_a_minimum_antecedence_ending_on_a_doubtful_day_is_not_brought_forward",
        "test_an_unconfirmed_day_extends_a_citizen_deadline_but_never_shortens_one",
        "test_pack_rules_read_the_request_not_the_bare_folder",
        "test_staff_periods_win_over_shipped_ones_only_where_they_fall",
        "test_the_pack_says_which_parameters_staff_may_set",
        "test_the_shipped_calendar_marks_corpus_christi_unconfirmed",
    }),
    "test_statutory": frozenset({
        "test_broken_table_is_a_content_pack_error", "test_cli_bad_input_exits_2",
        "test_cli_issue_example_json", "test_cli_without_filing_and_in_text",
        "test_context_is_reused_across_calls", "test_coverage_reads_non_law_files_of_legal_text",
        "test_deadline_table", "test_every_entry_has_a_row",
        "test_forward_deadline_cannot_move_back", "test_hour_deadline_needs_the_hour",
        "test_hour_deadlines", "test_issue_example_timely_on_the_moved_last_day",
        "test_issue_example_untimely", "test_months_must_be_in_order",
        "test_parameter_in_force_on_the_start_date", "test_property_lists_are_not_empty",
        "test_real_pack_lists_every_deadline_as_implemented", "test_timeliness_table",
        "test_unknown_citation_lists_the_deadlines",
    }),
    "test_verification": frozenset({
        "test_check_character_catches_substitutions_and_transpositions",
        "test_new_codes_are_grouped_valid_and_use_the_unambiguous_alphabet",
        "test_normalize_code_accepts_what_people_type_and_explains_errors",
        "test_qr_png_draws_the_symbol_of_the_url",
        "test_qr_png_with_its_fixed_mask_decodes_to_the_url", "test_verification_url",
    }),
}
