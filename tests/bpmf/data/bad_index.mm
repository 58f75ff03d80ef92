%%MatrixMarket matrix coordinate real general
4 3 3
1 1 5.0
5 2 6.0
2 3 4.5
