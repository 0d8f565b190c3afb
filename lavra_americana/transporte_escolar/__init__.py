"""Lei nº 4.515/2007 (transporte escolar): the rules a schema cannot say, by topic.

=============================  ==============================================================
:mod:`.fees`                   the fees of art. 16 and the fine of art. 23, II, in UFESP
:mod:`.penalties`              advertência, fine, doubling and revocation (arts. 9º, § 2º,
                               21, 23 and 24)
:mod:`.candidate`              the candidate's data (art. 7º), read from JSON
:mod:`.eligibility`            who may hold or drive under a licence (arts. 4º, 7º, 9º, 14,
                               15 and 17)
:mod:`.population`             the licence cap (art. 6º) from the IBGE population
:mod:`.ranking`                the ranking of the selection (art. 8º and its Anexo)
:mod:`.requerimentos`          the requerimentos of inscrição (art. 7º) and renewal
                               (art. 13, § 5º)
:mod:`.alvara`                 the alvará and its renewal (arts. 3º, 6º, 11 to 17)
:mod:`.licenca_temporaria`     the Licença Temporária (arts. 4º and 5º)
:mod:`.licencas`               the Licença Especial (art. 20), advertising (art. 17, §§ 2º
                               and 3º) and the exchange of vehicle (art. 17, § 1º)
:mod:`.troca_veiculo`         the termo that decides a change of vehicle (art. 17, § 1º;
                               art. 3º, "modificado")
:mod:`.auto_infracao`          the auto de infração or advertência (arts. 21 to 26)
:mod:`.edital`                 the edital de chamamento (arts. 6º to 11)
=============================  ==============================================================

The vehicle's age (art. 17, I; art. 5º, II) and the appeal decisions (arts. 11, 25 to
27) are shared with the fretamento law, in :mod:`lavra_americana.comum`.
"""
