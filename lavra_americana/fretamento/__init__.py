"""Lei nº 4.419/2006 (fretamento): the rules a schema cannot say, by topic.

=============================  ==============================================================
:mod:`.fines`                  the fines of arts. 15 to 17, corrected yearly (art. 14, § único)
:mod:`.penalties`              repeat offence (art. 18), several infractions (art. 20), the
                               temporary impediment (art. 21)
:mod:`.auto_infracao`          the auto de infração (arts. 14 to 21, appeal of art. 23)
:mod:`.cassacao`               the cassação (art. 14, d; art. 22; arts. 24 and 25)
:mod:`.impedimento`            the term of impediment and withdrawal (arts. 13, 19 and 21)
=============================  ==============================================================

The vehicle's age (art. 10, I) and the appeal decisions (arts. 23 and 24) are shared
with the school-transport law, in :mod:`lavra_americana.comum`.
"""
