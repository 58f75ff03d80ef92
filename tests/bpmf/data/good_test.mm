%%MatrixMarket matrix coordinate real general
4 3 3
1 3 5.0
2 1 6.0
4 1 7.0
